import { describe, expect, it } from 'vitest';
import { changesOf, fieldsOf, MAX_CHANGES_BYTES, MAX_TEXT, REDACTED, scrubText, scrubValue } from './audit-values';

describe('the values the audit trail keeps', () => {
  it('drops fields whose name says they hold a secret, at any depth, and the columns secret-columns.ts knows', () => {
    expect(
      scrubValue({
        name: 'db',
        password: 'p',
        apiKey: 'k',
        client_secret: 's',
        spec: { http: [{ url: 'https://x.test', bearerToken: 't', authentication: { username: 'u', password: 'p2' } }] },
        password_encrypted: 'c',
        session_cookie: 'c2',
      }),
    ).toEqual({ name: 'db', spec: { http: [{ url: 'https://x.test', authentication: { username: 'u' } }] } });
  });

  it('drops the value of a secret-named header or variable pair, and sealed envelopes', () => {
    expect(
      scrubValue({
        headers: [
          { name: 'Authorization', value: 'Basic abc' },
          { name: 'Accept', value: 'application/json' },
        ],
        env: [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db' } } }],
        body: { $encrypted: 'AAAA' },
      }),
    ).toEqual({ headers: [{ name: 'Authorization' }, { name: 'Accept', value: 'application/json' }], env: [{ name: 'DB_PASSWORD' }] });
  });

  it('keeps a header value only when the header is public, never an environment value or a request body, as the spec sealer decides', () => {
    expect(
      scrubValue({
        spec: {
          http: [
            {
              url: 'https://api.test',
              headers: { 'X-Vendor-Sig': 'vendor-plaintext', 'X-Tenant': 'tenant-plaintext', Accept: 'application/json' },
              body: '{"client_id":"c","client_secret":"body-plaintext"}',
            },
          ],
          exec: [{ script: 'echo', env: { REGION: 'eu-plaintext' } }],
        },
      }),
    ).toEqual({
      spec: {
        http: [{ url: 'https://api.test', headers: { 'X-Vendor-Sig': REDACTED, 'X-Tenant': REDACTED, Accept: 'application/json' } }],
        exec: [{ script: 'echo', env: { REGION: REDACTED } }],
      },
    });
  });

  it('cuts credentials out of texts: URL user info, secret query values, bearer and odt_ tokens', () => {
    expect(scrubText('postgres://admin:hunter2@db:5432/app')).toBe(`postgres://${REDACTED}@db:5432/app`);
    expect(scrubText('slack://xoxb-123@channel')).toBe(`slack://${REDACTED}@channel`);
    expect(scrubText('https://hooks.test/x?channel=ops&access_token=abc123&sig=9')).toBe(`https://hooks.test/x?channel=ops&access_token=${REDACTED}&sig=${REDACTED}`);
    expect(scrubText('Authorization: Bearer eyJhbGciOi.x.y')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(scrubText(`curl -H 'Authorization: Bearer odt_${'a'.repeat(43)}'`)).not.toContain('a'.repeat(43));
  });

  it('keeps plain values, truncating long texts', () => {
    expect(scrubValue({ count: 3, enabled: false, note: null, tags: ['a', 'b'] })).toEqual({ count: 3, enabled: false, note: null, tags: ['a', 'b'] });
    expect((scrubValue('x'.repeat(MAX_TEXT + 50)) as string).length).toBe(MAX_TEXT + 1);
  });

  it('names every top-level field written, secret ones included', () => {
    expect(fieldsOf([{ name: 'a', password: 'p' }, { url: 'u' }])).toEqual(['name', 'password', 'url']);
  });

  it('keeps one row as an object, several as a list, and only a marker past the size limit', () => {
    expect(changesOf([{ name: 'a', token: 't' }])).toEqual({ name: 'a' });
    expect(changesOf([{ name: 'a' }, { name: 'b' }])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(changesOf([])).toBeNull();
    const big = Array.from({ length: 20 }, (_, index) => ({ name: `row ${index}`, text: 'y'.repeat(MAX_TEXT), more: 'z'.repeat(MAX_TEXT) }));
    expect(JSON.stringify(scrubValue(big)).length).toBeGreaterThan(MAX_CHANGES_BYTES);
    expect(changesOf(big)).toEqual({ $truncated: true, rows: 20 });
  });
});
