import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { checksFromCanarySpec, parseCheckSpec } from './canary-spec';
import { encryptSecret } from '../../platform/secrets';
import { openSpec, sealSpec } from '../../platform/secret-fields';
import { sealBound } from '../../platform/sealed-values';
import { CANARY_LAYOUT, isSecretEnvelope, openCheckSpec, sealCanarySpec, sealCheckSpec, SpecSecretError } from './canary-secrets';

const key = randomBytes(32);
const otherKey = randomBytes(32);
const CANARY = '3f1c2b8e-0000-4000-8000-000000000001';
const OTHER_CANARY = '3f1c2b8e-0000-4000-8000-000000000002';

const sealSpecSecrets = <T>(sealKey: Buffer, value: T) => sealSpec(sealKey, CANARY_LAYOUT, CANARY, value);
const encryptSpecSecrets = <T>(sealKey: Buffer, value: T): T => sealCanarySpec(sealKey, CANARY, value).spec;
const decryptSpecSecrets = (openKey: Buffer, value: Record<string, unknown>) => openSpec(openKey, CANARY_LAYOUT, CANARY, value);

function spec(): Record<string, unknown> {
  return {
    schedule: '@every 1m',
    env: { DB_PASSWORD: 'canary-env-secret', REGION: 'eu-west-1' },
    http: [
      {
        name: 'api',
        url: 'https://api.example.com/health',
        authentication: { username: 'ada', password: 'basic-secret' },
        headers: { Authorization: 'Bearer header-secret', 'X-Api-Key': { value: 'key-secret' }, Accept: 'application/json' },
        labels: { token: 'not-a-secret-label' },
      },
      {
        name: 'listed-headers',
        url: 'https://api.example.com/other',
        headers: [
          { name: 'Cookie', value: 'session=cookie-secret' },
          { name: 'Accept', value: 'text/plain' },
        ],
      },
    ],
    redis: [{ name: 'cache', addr: 'redis:6379', password: 'redis-secret' }],
    postgres: [{ name: 'db', connection: 'connection://default/orders', password: { value: 'pg-secret' } }],
    elasticsearch: [{ name: 'search', url: 'http://es:9200', index: 'logs', authentication: { username: 'elastic', password: 'es-secret' } }],
    exec: [{ name: 'script', script: 'echo ok', env: { GITHUB_TOKEN: 'exec-secret', MODE: 'fast' } }],
  };
}

const PLAINTEXTS = ['canary-env-secret', 'basic-secret', 'header-secret', 'key-secret', 'cookie-secret', 'redis-secret', 'pg-secret', 'es-secret', 'exec-secret'];

describe('canary spec secrets', () => {
  it('seals every kind of secret value and no plaintext is left in the stored spec', () => {
    const { spec: sealed, sealed: count, problems } = sealSpecSecrets(key, spec());
    const text = JSON.stringify(sealed);
    for (const plaintext of PLAINTEXTS) expect(text).not.toContain(plaintext);
    expect(count).toBe(PLAINTEXTS.length);
    expect(problems).toEqual([]);
    const http = (sealed.http as Array<Record<string, unknown>>)[0] as { authentication: { password: unknown }; headers: Record<string, unknown> };
    expect(isSecretEnvelope(http.authentication.password)).toBe(true);
    expect(isSecretEnvelope(http.headers['X-Api-Key'])).toBe(true);
  });

  it('leaves values that are not secret, references and labels as they were', () => {
    const sealed = encryptSpecSecrets(key, spec());
    const [api, listed] = sealed.http as Array<Record<string, unknown>>;
    expect(api).toMatchObject({ url: 'https://api.example.com/health', authentication: { username: 'ada' }, labels: { token: 'not-a-secret-label' } });
    expect((api?.headers as Record<string, unknown>).Accept).toBe('application/json');
    expect(listed?.headers).toEqual([
      { name: 'Cookie', value: expect.objectContaining({ $encrypted: expect.any(String) }) },
      { name: 'Accept', value: 'text/plain' },
    ]);
    const reference = { valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } };
    const referenced = { s3: [{ name: 'bucket', secretKey: reference, headers: [{ name: 'X-Token', ...reference }] }] };
    expect(sealSpecSecrets(key, referenced)).toEqual({ spec: referenced, sealed: 0, dropped: [], problems: [] });
    expect(sealed.env).toMatchObject({ REGION: 'eu-west-1' });
    expect((sealed.exec as Array<{ env: Record<string, unknown> }>)[0]?.env.MODE).toBe('fast');
    expect(sealed.schedule).toBe('@every 1m');
  });

  it('opens a sealed spec back to the original values, with {value} secrets as plain strings', () => {
    const opened = decryptSpecSecrets(key, encryptSpecSecrets(key, spec()));
    const original = spec();
    (original.postgres as Array<Record<string, unknown>>)[0] = { name: 'db', connection: 'connection://default/orders', password: 'pg-secret' };
    const http = original.http as Array<{ headers: Record<string, unknown> }>;
    if (http[0] !== undefined) http[0].headers['X-Api-Key'] = 'key-secret';
    expect(opened).toEqual(original);
  });

  it('keeps an envelope of this key as it is, so an edit that sends it back keeps the secret', () => {
    const first = encryptSpecSecrets(key, { redis: [{ name: 'cache', addr: 'redis:6379', password: 'kept' }] });
    const envelope = (first.redis[0] as { password: unknown }).password;
    const { spec: sealed, sealed: count, dropped } = sealSpecSecrets(key, first);
    expect(count).toBe(0);
    expect(dropped).toEqual([]);
    expect((sealed.redis[0] as { password: unknown }).password).toBe(envelope);
    expect(openCheckSpec(key, CANARY, sealed.redis[0] as Record<string, unknown>).password).toBe('kept');
  });

  it('drops an envelope copied into another canary, so a copy opens nowhere else', () => {
    const theirs = encryptSpecSecrets(key, { http: [{ name: 'api', url: 'https://api.example.com', headers: { Authorization: 'Bearer admin-token' } }] });
    const copied = sealSpec(key, CANARY_LAYOUT, OTHER_CANARY, theirs);
    expect(copied.dropped).toEqual(['http[0].headers.Authorization']);
    expect(JSON.stringify(copied.spec)).not.toContain('$encrypted');
    const entry = (theirs.http as Array<Record<string, unknown>>)[0] ?? {};
    expect(() => openCheckSpec(key, OTHER_CANARY, entry)).toThrow(SpecSecretError);
  });

  it('drops an envelope whose check now points at another destination, and a run of such a stored spec fails', () => {
    const stored = encryptSpecSecrets(key, { http: [{ name: 'api', url: 'https://api.example.com/health', headers: { Authorization: 'Bearer admin-token' } }] });
    const entry = (stored.http as Array<Record<string, unknown>>)[0] ?? {};
    const moved = { http: [{ ...entry, url: 'https://attacker.example/collect' }] };
    expect(sealSpecSecrets(key, moved).dropped).toEqual(['http[0].headers.Authorization']);
    expect(sealSpecSecrets(key, { http: [{ ...entry, url: 'https://api.example.com/other-path' }] }).dropped).toEqual([]);
    expect(() => openCheckSpec(key, CANARY, { ...entry, url: 'https://attacker.example/collect' })).toThrow(/sealed for another resource, field or destination/);
  });

  it('tells two stored connections of one namespace apart as destinations', () => {
    const stored = encryptSpecSecrets(key, { postgres: [{ name: 'db', connection: 'connection://default/orders', password: 'pg-secret' }] });
    const entry = (stored.postgres as Array<Record<string, unknown>>)[0] ?? {};
    expect(sealSpecSecrets(key, { postgres: [{ ...entry, connection: 'connection://default/payments' }] }).dropped).toEqual(['postgres[0].password']);
    expect(openCheckSpec(key, CANARY, entry).password).toBe('pg-secret');
  });

  it('drops an envelope moved to another field of the same check', () => {
    const stored = encryptSpecSecrets(key, { http: [{ name: 'api', url: 'https://api.example.com', headers: { Authorization: 'Bearer admin-token' } }] });
    const entry = (stored.http as Array<{ headers: Record<string, unknown> }>)[0];
    const moved = { http: [{ name: 'api', url: 'https://api.example.com', headers: { 'X-Echo': entry?.headers.Authorization } }] };
    expect(sealSpecSecrets(key, moved).dropped).toEqual(['http[0].headers.X-Echo']);
  });

  it('refuses an envelope sealed before secrets were bound, since a reader may have kept a copy of it', () => {
    const legacy = { $encrypted: encryptSecret(key, 'old').toString('base64') };
    const result = sealSpecSecrets(key, { redis: [{ name: 'cache', addr: 'redis:6379', password: legacy }] });
    expect(result.problems).toEqual([{ kind: 'undecryptable', path: 'redis[0].password' }]);
  });

  it('refuses a credential in a URL query and names the parameter, but not a reference filled in at run time', () => {
    expect(() => encryptSpecSecrets(key, { http: [{ name: 'q', url: 'https://a.example/x?api_key=abc123' }] })).toThrow(/The query parameter 'api_key' of http\[0\]\.url carries a credential/);
    expect(encryptSpecSecrets(key, { http: [{ name: 'q', url: 'https://a.example/x?api_key=$(token)&page=2' }] })).toEqual({
      http: [{ name: 'q', url: 'https://a.example/x?api_key=$(token)&page=2' }],
    });
  });

  it('refuses an envelope sealed under another key with a coded 400', () => {
    const theirs = sealBound(otherKey, 'theirs', { kind: 'canary', resource: CANARY, path: 'authentication.password', destination: 'https://x' });
    const foreign = { http: [{ name: 'api', url: 'https://x', authentication: { username: 'u', password: theirs } }] };
    expect(sealSpecSecrets(key, foreign).problems).toEqual([{ kind: 'undecryptable', path: 'http[0].authentication.password' }]);
    let thrown: unknown;
    try {
      encryptSpecSecrets(key, foreign);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).toBody()).toMatchObject({
      code: 'OD_SPEC_SECRET',
      message: 'A secret in the spec cannot be decrypted; enter it again',
      details: 'http[0].authentication.password',
    });
    expect(() => decryptSpecSecrets(key, foreign)).toThrow(SpecSecretError);
  });

  it('moves the password of a database URL to the sealed password field, leaving $(password) and the host in the URL', () => {
    const input = { kind: 'Canary', spec: { postgres: [{ name: 'db', url: 'postgres://app:hun%40ter2@db:5432/orders?sslmode=disable' }] } };
    const sealed = encryptSpecSecrets(key, input);
    const entry = sealed.spec.postgres[0] as Record<string, unknown>;
    expect(entry.url).toBe('postgres://app:$(password)@db:5432/orders?sslmode=disable');
    expect(isSecretEnvelope(entry.password)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('hun');
    expect(openCheckSpec(key, CANARY, entry)).toMatchObject({ url: 'postgres://app:$(password)@db:5432/orders?sslmode=disable', password: 'hun@ter2' });
    expect(checksFromCanarySpec(sealed).map((check) => check.endpoint)).toEqual(['postgres://app:$(password)@db:5432/orders?sslmode=disable']);
  });

  it('moves the user part of an http URL to username and a sealed password, which the check sends as Basic auth', () => {
    const sealed = encryptSpecSecrets(key, { http: [{ name: 'basic', url: 'https://hello:world2@auth.example.com/basic-auth/hello/world2' }] });
    const entry = sealed.http[0] as Record<string, unknown>;
    expect(entry).toMatchObject({ url: 'https://auth.example.com/basic-auth/hello/world2', username: 'hello' });
    expect(openCheckSpec(key, CANARY, entry)).toMatchObject({ password: 'world2' });
  });

  it('refuses a URL that carries a password it cannot move, and names the field', () => {
    const input = { postgres: [{ name: 'db', url: 'postgres://app:hunter2@db:5432/orders', password: 'another' }] };
    expect(() => encryptSpecSecrets(key, input)).toThrow(/Put the password of postgres\[0\]\.url in a connection or in the password field, not in the URL/);
    expect(() => encryptSpecSecrets(key, { prometheus: [{ name: 'p', url: 'https://u:p@prom.example.com', query: 'up' }] })).toThrow(/prometheus\[0\]\.url/);
    expect(encryptSpecSecrets(key, { postgres: [{ name: 'db', url: 'postgres://app@db:5432/orders' }] })).toEqual({
      postgres: [{ name: 'db', url: 'postgres://app@db:5432/orders' }],
    });
  });

  it('leaves empty secrets empty rather than sealing nothing', () => {
    expect(sealSpecSecrets(key, { redis: [{ name: 'cache', addr: 'r:6379', password: '' }] }).sealed).toBe(0);
  });

  it('validates a sealed spec as a canary spec, and a sealed header map still parses as headers', () => {
    const sealed = encryptSpecSecrets(key, spec());
    expect(checksFromCanarySpec(sealed).map((check) => `${check.type}/${check.name}`)).toContain('redis/cache');
    const opened = decryptSpecSecrets(key, sealed);
    const http = parseCheckSpec('http', (opened.http as unknown[])[0]);
    expect(http.headers).toMatchObject({ Authorization: 'Bearer header-secret', 'X-Api-Key': 'key-secret' });
    expect(http.authentication).toEqual({ username: 'ada', password: 'basic-secret' });
  });

  it('seals every header not on the public allow-list, whatever its name, and keeps the public ones readable', () => {
    const headers = { 'X-Password': 'pw-secret', 'X-Auth-Pass': 'pass-secret', 'X-Vendor-Sig': 'sig-secret', 'content-type': 'application/json', ACCEPT: 'text/html', 'User-Agent': 'probe' };
    const sealed = encryptSpecSecrets(key, { http: [{ name: 'h', url: 'https://a.example', headers }] });
    const stored = (sealed.http as Array<{ headers: Record<string, unknown> }>)[0]?.headers ?? {};
    for (const name of ['X-Password', 'X-Auth-Pass', 'X-Vendor-Sig']) expect(isSecretEnvelope(stored[name]), name).toBe(true);
    expect(stored).toMatchObject({ 'content-type': 'application/json', ACCEPT: 'text/html', 'User-Agent': 'probe' });
    expect(JSON.stringify(sealed)).not.toMatch(/pw-secret|pass-secret|sig-secret/);
  });

  it('seals the request body of an HTTP check, and the sealed spec still validates and opens to the same body', () => {
    const body = '{"username":"ada","password":"body-secret"}';
    const sealed = encryptSpecSecrets(key, { http: [{ name: 'login', url: 'https://a.example/login', method: 'POST', body }] });
    const entry = (sealed.http as Array<Record<string, unknown>>)[0];
    expect(isSecretEnvelope(entry?.body)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('body-secret');
    expect(checksFromCanarySpec(sealed)).toHaveLength(1);
    expect(parseCheckSpec('http', (decryptSpecSecrets(key, sealed).http as unknown[])[0]).body).toBe(body);
  });

  it("keeps a junit report row's secrets bound as in its canary: each check's entry opens, and a write of the row drops none", () => {
    const sealed = encryptSpecSecrets(key, { resultMode: 'junit', http: [{ name: 'api', url: 'https://api.example.com/health', headers: { Authorization: 'Bearer row-secret' } }], redis: [{ name: 'cache', addr: 'redis:6379', password: 'redis-row-secret' }] });
    const [row] = checksFromCanarySpec(sealed, { canaryName: 'shop' });
    expect(row?.type).toBe('junit');
    const rowSpec = row?.spec ?? {};
    const rewritten = sealCheckSpec(key, CANARY, rowSpec);
    expect(rewritten.dropped).toEqual([]);
    expect(rewritten.spec).toEqual(rowSpec);
    expect(JSON.stringify(rowSpec)).not.toMatch(/row-secret/);
    const opened = openCheckSpec(key, CANARY, rowSpec);
    expect((opened.http as Array<{ headers: Record<string, unknown> }>)[0]?.headers.Authorization).toBe('Bearer row-secret');
    expect(openCheckSpec(key, CANARY, (rowSpec.redis as Array<Record<string, unknown>>)[0] ?? {}).password).toBe('redis-row-secret');
  });
});
