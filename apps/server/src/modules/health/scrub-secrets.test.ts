import { describe, expect, it } from 'vitest';
import { sealBound, type SecretBinding } from '../../platform/sealed-values';

const BINDING: SecretBinding = { kind: 'canary', resource: 'c', path: 'p', destination: '' };
import { REDACTED, scrubSecrets, SecretCollector } from './scrub-secrets';

const KEY = Buffer.alloc(32, 3);

describe('scrubbing secrets from check results', () => {
  it('replaces every secret in every string, nested in objects and arrays, keys included', () => {
    const result = {
      message: 'token hunter2-token echoed',
      error: null,
      details: { stdout: ['a hunter2-token', { deep: 'x hunter2-token y' }], 'hunter2-token': 1, exitCode: 0, ok: true },
    };
    expect(scrubSecrets(result, ['hunter2-token'])).toEqual({
      message: `token ${REDACTED} echoed`,
      error: null,
      details: { stdout: [`a ${REDACTED}`, { deep: `x ${REDACTED} y` }], [REDACTED]: 1, exitCode: 0, ok: true },
    });
  });

  it('replaces a longer secret whole before a shorter one inside it', () => {
    const collector = new SecretCollector();
    collector.add('pass');
    collector.add('password-long');
    expect(scrubSecrets('x password-long y pass', collector.values())).toBe(`x ${REDACTED} y ${REDACTED}`);
  });

  it('redacts the start of a secret cut off at the end of a string by a length cap', () => {
    expect(scrubSecrets('output ... s3cr3t-va', ['s3cr3t-value'])).toBe(`output ... ${REDACTED}`);
  });

  it('ignores values shorter than four characters', () => {
    const collector = new SecretCollector();
    collector.add('abc');
    collector.add('');
    expect(collector.values()).toEqual([]);
    expect(scrubSecrets('abc', collector.values())).toBe('abc');
  });

  it('collects the opened value of every sealed field, the Basic auth form of username and password, and URL-encoded forms', () => {
    const sealed = { name: 'h', authentication: { username: 'alice', password: sealBound(KEY, 'p@ss word', BINDING) }, headers: { 'X-Token': sealBound(KEY, 'tok-123', BINDING) } };
    const opened = { name: 'h', authentication: { username: 'alice', password: 'p@ss word' }, headers: { 'X-Token': 'tok-123' } };
    const collector = new SecretCollector();
    collector.addOpenedSpec(sealed, opened);
    const values = collector.values();
    expect(values).toEqual(expect.arrayContaining(['p@ss word', 'p%40ss%20word', 'tok-123', 'alice', Buffer.from('alice:p@ss word').toString('base64')]));
    expect(values).not.toContain('h');
  });

  it("collects every value of an exec check's environment, as a map or as a list", () => {
    const collector = new SecretCollector();
    collector.addEnvironment({ API_TOKEN: 'abcd-1234', REGION: 'eu-west-1' });
    collector.addEnvironment([{ name: 'OTHER', value: 'listed-value' }]);
    expect(collector.values().sort()).toEqual(['abcd-1234', 'eu-west-1', 'listed-value']);
  });

  it('collects the credentials of a resolved connection, including a password inside its URL', () => {
    const collector = new SecretCollector();
    collector.addConnection({
      id: null,
      name: 'db',
      namespace: 'default',
      type: 'postgres',
      url: 'postgres://svc:url-secret@db:5432/app',
      username: 'svc-user',
      password: 'conn-secret',
      certificate: null,
      insecureTls: false,
      properties: {},
      secretProperties: { apiKey: 'prop-secret' },
    });
    expect(collector.values()).toEqual(
      expect.arrayContaining(['svc-user', 'conn-secret', 'prop-secret', 'url-secret', Buffer.from('svc-user:conn-secret').toString('base64')]),
    );
  });
});
