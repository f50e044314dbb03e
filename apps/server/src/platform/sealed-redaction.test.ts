import { describe, expect, it } from 'vitest';
import { mayReadSecretEnvelopes, redactSecretEnvelopes, secretEnvelopesFor } from './sealed-redaction';

describe('redactSecretEnvelopes', () => {
  it('empties the ciphertext of every envelope, however deep it sits in objects and arrays', () => {
    const spec = { http: [{ headers: { Authorization: { $encrypted: 'c2VjcmV0' } }, body: { $encrypted: 'Ym9keQ==' } }], env: [[{ value: { $encrypted: 'ZW52' } }]] };
    expect(redactSecretEnvelopes(spec)).toEqual({
      http: [{ headers: { Authorization: { $encrypted: '' } }, body: { $encrypted: '' } }],
      env: [[{ value: { $encrypted: '' } }]],
    });
  });

  it('leaves strings that only look like envelopes, numbers under $encrypted and the input itself unchanged', () => {
    const value = { description: '{"$encrypted": "x"}', list: ['$encrypted'], odd: { $encrypted: 5 }, sealed: { $encrypted: 'eA==' } };
    const copy = structuredClone(value);
    expect(redactSecretEnvelopes(value)).toEqual({ ...copy, sealed: { $encrypted: '' } });
    expect(value).toEqual(copy);
  });

  it('keeps a __proto__ key a key, redacted like any other', () => {
    const parsed = JSON.parse('{"__proto__": {"$encrypted": "cA=="}}') as Record<string, unknown>;
    const redacted = redactSecretEnvelopes(parsed);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"$encrypted":""}}');
  });
});

describe('secretEnvelopesFor', () => {
  const spec = { headers: { Authorization: { $encrypted: 'c2VjcmV0' } } };

  it('hands the envelopes to the roles that may write the resource, and empties them for the others', () => {
    for (const role of ['admin', 'editor']) expect(secretEnvelopesFor([role], ['canaries'], spec)).toBe(spec);
    for (const role of ['commander', 'responder', 'viewer']) {
      expect(secretEnvelopesFor([role], ['canaries'], spec)).toEqual({ headers: { Authorization: { $encrypted: '' } } });
    }
  });

  it('needs write on every resource a copied spec comes from', () => {
    expect(mayReadSecretEnvelopes(['editor'], ['playbook_runs', 'playbooks'])).toBe(true);
    expect(mayReadSecretEnvelopes(['editor'], ['playbooks', 'connections'])).toBe(false);
  });
});
