import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealStoredSpecSecrets } from '../src/modules/health/canary-secrets';
import { sealBound } from '../src/platform/sealed-values';
import { syncCanaryChecks } from '../src/modules/health/canary-sync';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { startRedis } from './fixtures/local-targets';
import { startTestServer, type TestServer } from './harness';

interface CanaryResponse {
  id: string;
  spec: Record<string, unknown>;
  yaml: string;
  checks: { id: string; type: string; name: string }[];
}

interface Reply {
  status: number;
  text: string;
  json: unknown;
}

const BASIC_PASSWORD = 'basic-pass-4f1d';
const REDIS_PASSWORD = 'redis-pass-9c2e';

/** A server that answers 200 only to Basic ada:<expected>, and remembers the Authorization headers it saw. */
async function startAuthServer(): Promise<{ url: string; expected: { password: string }; seen: string[]; close(): Promise<void> }> {
  const expected = { password: BASIC_PASSWORD };
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    const header = request.headers.authorization ?? '';
    seen.push(header);
    const ok = header === `Basic ${Buffer.from(`ada:${expected.password}`).toString('base64')}`;
    response.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' });
    response.end(ok ? 'welcome' : 'who are you');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/private`,
    expected,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function pathOf(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { $encrypted?: unknown }).$encrypted === 'string';
}

describe('secrets in canary specs', () => {
  let server: TestServer;
  let admin: string;
  let auth: Awaited<ReturnType<typeof startAuthServer>>;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  const previousRole = process.env.OPSDECK_ROLE;

  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { cookie: admin, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, json: text === '' ? null : (JSON.parse(text) as unknown) };
  }

  function spec(name: string, password = BASIC_PASSWORD): Record<string, unknown> {
    return {
      schedule: '@every 5m',
      http: [{ name: `${name}-http`, url: auth.url, responseCodes: [200], authentication: { username: 'ada', password } }],
      redis: [{ name: `${name}-redis`, addr: `127.0.0.1:${redis.port}`, password: REDIS_PASSWORD }],
    };
  }

  function expectNoPlaintext(reply: Reply, ...plaintexts: string[]): void {
    expect(reply.status, reply.text).toBeLessThan(300);
    for (const plaintext of plaintexts) expect(reply.text).not.toContain(plaintext);
  }

  /** Runs what is due and returns the outcome of the given checks. */
  async function runChecks(checkIds: string[]): Promise<Map<string, { pass: boolean; message: string }>> {
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 16 });
    const runs = await scheduler.runDue();
    return new Map(runs.filter((run) => checkIds.includes(run.checkId)).map((run) => [run.checkId, { pass: run.result.pass, message: run.result.error ?? run.result.message }]));
  }

  async function storedSpecs(canaryId: string): Promise<{ canary: unknown; checks: Record<string, unknown> }> {
    const canary = await server.pool.query<{ spec: unknown }>('select spec from canaries where id = $1', [canaryId]);
    const checks = await server.pool.query<{ type: string; spec: unknown }>('select type, spec from checks where canary_id = $1 and deleted_at is null', [canaryId]);
    return { canary: canary.rows[0]?.spec, checks: Object.fromEntries(checks.rows.map((row) => [row.type, row.spec])) };
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    [server, auth, redis] = await Promise.all([startTestServer(), startAuthServer(), startRedis(REDIS_PASSWORD)]);
    admin = await server.cookieFor('admin');
    // The demo checks stay out of the runs these tests drive.
    await server.pool.query(`update checks set next_runtime = now() + interval '1 day'`);
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await Promise.all([server.close(), auth.close(), redis.close()]);
  });

  it('stores the passwords of a canary saved through the canary API sealed, and no read returns them', async () => {
    const created = await call('POST', '/api/canary/canaries', { name: 'sealed-service', spec: spec('service') });
    expectNoPlaintext(created, BASIC_PASSWORD, REDIS_PASSWORD);
    const canary = created.json as CanaryResponse;
    expect(isEnvelope(pathOf(canary.spec, 'http', 0, 'authentication', 'password'))).toBe(true);
    expect(canary.yaml).toContain('$encrypted');

    const stored = await storedSpecs(canary.id);
    expect(isEnvelope(pathOf(stored.canary, 'redis', 0, 'password'))).toBe(true);
    expect(isEnvelope(pathOf(stored.checks.http, 'authentication', 'password'))).toBe(true);
    expect(isEnvelope(pathOf(stored.checks.redis, 'password'))).toBe(true);

    const httpCheck = canary.checks.find((check) => check.type === 'http')?.id ?? '';
    for (const url of [
      `/api/canary/canaries/${canary.id}`,
      '/api/canary/canaries',
      `/api/db/canaries?id=eq.${canary.id}`,
      `/api/db/canaries_with_status?id=eq.${canary.id}`,
      `/api/db/checks?canary_id=eq.${canary.id}`,
      `/api/canary/api/details?check=${httpCheck}`,
      `/api/canary/api/summary?canary_id=${canary.id}`,
    ]) {
      expectNoPlaintext(await call('GET', url), BASIC_PASSWORD, REDIS_PASSWORD);
    }
  });

  it('opens the sealed passwords only to run the checks, which authenticate against the servers', async () => {
    const created = await call('POST', '/api/canary/canaries', { name: 'sealed-runs', spec: spec('runs') });
    const canary = created.json as CanaryResponse;
    auth.seen.length = 0;
    const results = await runChecks(canary.checks.map((check) => check.id));
    expect([...results.values()]).toEqual([
      { pass: true, message: expect.any(String) },
      { pass: true, message: expect.any(String) },
    ]);
    expect(auth.seen).toContain(`Basic ${Buffer.from(`ada:${BASIC_PASSWORD}`).toString('base64')}`);
  });

  it('moves a password written in an http or redis URL to a sealed field that no read returns, and the checks authenticate with it', async () => {
    const withUserPart = (url: string, user: string, password: string) => url.replace('://', `://${user}:${encodeURIComponent(password)}@`);
    const created = await call('POST', '/api/canary/canaries', {
      name: 'url-passwords',
      spec: {
        schedule: '@every 5m',
        http: [{ name: 'url-basic', url: withUserPart(auth.url, 'ada', BASIC_PASSWORD), responseCodes: [200] }],
        redis: [{ name: 'url-redis', url: withUserPart(`redis://127.0.0.1:${redis.port}`, '', REDIS_PASSWORD) }],
      },
    });
    expectNoPlaintext(created, BASIC_PASSWORD, REDIS_PASSWORD);
    const canary = created.json as CanaryResponse;
    expect(pathOf(canary.spec, 'http', 0, 'url')).toBe(auth.url);
    expect(pathOf(canary.spec, 'redis', 0, 'url')).toBe(`redis://:$(password)@127.0.0.1:${redis.port}`);
    const stored = await storedSpecs(canary.id);
    expect(isEnvelope(pathOf(stored.checks.http, 'password'))).toBe(true);
    expect(isEnvelope(pathOf(stored.checks.redis, 'password'))).toBe(true);
    expectNoPlaintext(await call('GET', `/api/db/checks?canary_id=eq.${canary.id}`), BASIC_PASSWORD, REDIS_PASSWORD);

    auth.seen.length = 0;
    const results = await runChecks(canary.checks.map((check) => check.id));
    expect([...results.values()].map((result) => result.pass)).toEqual([true, true]);
    expect(auth.seen).toContain(`Basic ${Buffer.from(`ada:${BASIC_PASSWORD}`).toString('base64')}`);
  });

  it('reads canary-checker\'s top-level http username and password and its exec env list, sealed at rest and scrubbed from output', async () => {
    const token = 'env-token-7b3a';
    const created = await call('POST', '/api/canary/canaries', {
      name: 'sealed-lists',
      spec: {
        schedule: '@every 5m',
        http: [{ name: 'top-level-http', url: auth.url, responseCodes: [200], username: { value: 'ada' }, password: { value: BASIC_PASSWORD } }],
        exec: [{ name: 'env-list', script: 'echo "$GREETING $API_TOKEN"', env: [{ name: 'GREETING', value: 'hello' }, { name: 'API_TOKEN', value: token }] }],
      },
    });
    expectNoPlaintext(created, BASIC_PASSWORD, token);
    const canary = created.json as CanaryResponse;
    const stored = await storedSpecs(canary.id);
    expect(isEnvelope(pathOf(stored.checks.http, 'password'))).toBe(true);
    expect(pathOf(stored.checks.exec, 'env', 0, 'value')).toBe('hello');
    expect(isEnvelope(pathOf(stored.checks.exec, 'env', 1, 'value'))).toBe(true);
    expectNoPlaintext(await call('GET', `/api/db/checks?canary_id=eq.${canary.id}`), BASIC_PASSWORD, token);

    const ids = new Map(canary.checks.map((check) => [check.type, check.id]));
    const results = await runChecks([...ids.values()]);
    expect(results.get(ids.get('http') ?? '')?.pass).toBe(true);
    const exec = results.get(ids.get('exec') ?? '');
    expect(exec?.pass).toBe(true);
    // A script may print its whole environment, so every env value is scrubbed, not only the secret-named ones.
    expect(exec?.message).toBe('[REDACTED] [REDACTED]');
  });

  it('keeps a password when an edit sends its envelope back, and replaces it when the edit sends a new one', async () => {
    const created = (await call('POST', '/api/canary/canaries', { name: 'sealed-edits', spec: spec('edits') })).json as CanaryResponse;
    const httpId = created.checks.find((check) => check.type === 'http')?.id ?? '';
    const envelope = pathOf(created.spec, 'http', 0, 'authentication', 'password');

    const kept = await call('PATCH', `/api/canary/canaries/${created.id}`, { spec: { ...created.spec, schedule: '@every 10m' } });
    expectNoPlaintext(kept, BASIC_PASSWORD);
    expect(pathOf((kept.json as CanaryResponse).spec, 'http', 0, 'authentication', 'password')).toEqual(envelope);
    await server.pool.query('update checks set next_runtime = now() where id = $1', [httpId]);
    expect((await runChecks([httpId])).get(httpId)?.pass).toBe(true);

    auth.expected.password = 'rotated-pass-77aa';
    try {
      const yaml = (kept.json as CanaryResponse).yaml.replace(/password:\n\s+\$encrypted: \S+/, 'password: rotated-pass-77aa');
      expect(yaml).toContain('password: rotated-pass-77aa');
      const replaced = await call('PATCH', `/api/canary/canaries/${created.id}`, { yaml });
      expectNoPlaintext(replaced, 'rotated-pass-77aa', REDIS_PASSWORD);
      const next = pathOf((replaced.json as CanaryResponse).spec, 'http', 0, 'authentication', 'password');
      expect(isEnvelope(next)).toBe(true);
      expect(next).not.toEqual(envelope);
      expect((await runChecks([httpId])).get(httpId)?.pass).toBe(true);
    } finally {
      auth.expected.password = BASIC_PASSWORD;
    }
  });

  it('seals passwords written through the data API on insert and on update', async () => {
    const inserted = await call('POST', '/api/db/canaries', { name: 'sealed-data-api', spec: spec('data') }, { prefer: 'return=representation' });
    expect(inserted.status).toBe(201);
    expectNoPlaintext(inserted, BASIC_PASSWORD, REDIS_PASSWORD);
    const [row] = inserted.json as Array<{ id: string; spec: Record<string, unknown> }>;
    const id = row?.id ?? '';
    const stored = await storedSpecs(id);
    expect(isEnvelope(pathOf(stored.canary, 'http', 0, 'authentication', 'password'))).toBe(true);
    expect(isEnvelope(pathOf(stored.canary, 'redis', 0, 'password'))).toBe(true);

    // Sending the stored spec back keeps the envelopes; a new plaintext is sealed in its place.
    const kept = await call('PATCH', `/api/db/canaries?id=eq.${id}`, { spec: row?.spec }, { prefer: 'return=representation' });
    expect((kept.json as Array<{ spec: unknown }>)[0]?.spec).toEqual(row?.spec);
    const rotated = await call('PATCH', `/api/db/canaries?id=eq.${id}`, { spec: spec('data', 'data-api-rotated') }, { prefer: 'return=representation' });
    expectNoPlaintext(rotated, 'data-api-rotated', REDIS_PASSWORD);

    await syncCanaryChecks(server.pool, id, { reschedule: true });
    const checks = await server.pool.query<{ id: string }>('select id from checks where canary_id = $1 and deleted_at is null', [id]);
    expect(checks.rows).toHaveLength(2);
    expectNoPlaintext(await call('GET', `/api/db/checks?canary_id=eq.${id}`), 'data-api-rotated', REDIS_PASSWORD);

    auth.expected.password = 'data-api-rotated';
    try {
      const results = await runChecks(checks.rows.map((check) => check.id));
      expect([...results.values()].map((result) => result.pass)).toEqual([true, true]);
    } finally {
      auth.expected.password = BASIC_PASSWORD;
    }
  });

  it('seals a secret written straight into a check row through the data API', async () => {
    const canary = (await call('POST', '/api/canary/canaries', { name: 'sealed-check-row', spec: spec('row') })).json as CanaryResponse;
    const redisId = canary.checks.find((check) => check.type === 'redis')?.id ?? '';
    const patched = await call(
      'PATCH',
      `/api/db/checks?id=eq.${redisId}`,
      { spec: { name: 'row-redis', addr: `127.0.0.1:${redis.port}`, password: 'written-to-the-row' } },
      { prefer: 'return=representation' },
    );
    expectNoPlaintext(patched, 'written-to-the-row');
    expect(isEnvelope(pathOf((await storedSpecs(canary.id)).checks.redis, 'password'))).toBe(true);
  });

  it('refuses an envelope sealed under another key with a coded error, through both APIs, and stores nothing', async () => {
    const foreign = spec('foreign');
    const http0 = pathOf(foreign, 'http', 0) as { authentication: Record<string, unknown> };
    http0.authentication.password = sealBound(randomBytes(32), 'someone-elses', { kind: 'canary', resource: 'any', path: 'authentication.password', destination: '' });

    const viaCanaryApi = await call('POST', '/api/canary/canaries', { name: 'sealed-foreign', spec: foreign });
    expect(viaCanaryApi.status).toBe(400);
    expect(viaCanaryApi.json).toEqual({
      code: 'OD_SPEC_SECRET',
      message: 'A secret in the spec cannot be decrypted; enter it again',
      details: 'http[0].authentication.password',
      hint: expect.any(String),
    });

    const viaDataApi = await call('POST', '/api/db/canaries', { name: 'sealed-foreign', spec: foreign });
    expect(viaDataApi.status).toBe(400);
    expect(viaDataApi.json).toMatchObject({ code: 'OD_SPEC_SECRET', message: 'A secret in the spec cannot be decrypted; enter it again' });
    const rows = await server.pool.query(`select 1 from canaries where name = 'sealed-foreign'`);
    expect(rows.rowCount).toBe(0);
  });

  it('refuses a password written inside a URL that also has a password field, and says where it belongs', async () => {
    const reply = await call('POST', '/api/canary/canaries', {
      name: 'sealed-url',
      yaml: 'postgres:\n  - name: orders\n    url: postgres://app:hunter2@127.0.0.1:5432/orders\n    password: other\n',
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      code: 'OD_URL_PASSWORD',
      message: 'Put the password of postgres[0].url in a connection or in the password field, not in the URL',
    });
    expect(reply.text).not.toContain('hunter2');
  });

  it("saves Mission Control's $(username):$(password)@ connection string, seals the password field and fills it in at run", async () => {
    const created = await call('POST', '/api/canary/canaries', {
      name: 'placeholder-url',
      spec: {
        schedule: '@every 5m',
        redis: [{ name: 'placeholder-redis', url: `redis://$(username):$(password)@127.0.0.1:${redis.port}`, username: { value: 'default' }, password: { value: REDIS_PASSWORD } }],
      },
    });
    expectNoPlaintext(created, REDIS_PASSWORD);
    const canary = created.json as CanaryResponse;
    const stored = await storedSpecs(canary.id);
    expect(pathOf(stored.checks.redis, 'url')).toBe(`redis://$(username):$(password)@127.0.0.1:${redis.port}`);
    expect(isEnvelope(pathOf(stored.checks.redis, 'password'))).toBe(true);
    const checkId = canary.checks.find((check) => check.type === 'redis')?.id ?? '';
    await server.pool.query('update checks set next_runtime = now() where id = $1', [checkId]);
    expect((await runChecks([checkId])).get(checkId)).toMatchObject({ pass: true, message: expect.stringMatching(/^PONG/) });
  });

  it('refuses $(username):$(password)@ in an http URL, which never sends credentials from its URL, and stores nothing', async () => {
    const reply = await call('POST', '/api/canary/canaries', {
      name: 'placeholder-http',
      spec: { schedule: '@every 5m', http: [{ name: 'api', url: 'https://$(username):$(password)@api.example.com/', username: 'ada', password: BASIC_PASSWORD }] },
    });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_URL_PLACEHOLDER', details: 'http[0].url' });
    expect(reply.text).not.toContain(BASIC_PASSWORD);
    expect((await server.pool.query(`select 1 from canaries where name = 'placeholder-http'`)).rowCount).toBe(0);
  });

  it('seals plaintext left in stored specs from before, and syncs the checks from the sealed spec', async () => {
    const inserted = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('sealed-legacy', $1) returning id`, [JSON.stringify(spec('legacy'))]);
    const id = inserted.rows[0]?.id ?? '';
    await syncCanaryChecks(server.pool, id, { reschedule: false });
    expect(JSON.stringify(await storedSpecs(id))).toContain(REDIS_PASSWORD);

    const report = await sealStoredSpecSecrets(server.pool, server.running.context.config.secretKey);
    expect(report.canaries).toBeGreaterThanOrEqual(1);
    const stored = await storedSpecs(id);
    expect(JSON.stringify(stored)).not.toContain(REDIS_PASSWORD);
    expect(JSON.stringify(stored)).not.toContain(BASIC_PASSWORD);
    expect(isEnvelope(pathOf(stored.checks.http, 'authentication', 'password'))).toBe(true);

    const again = await sealStoredSpecSecrets(server.pool, server.running.context.config.secretKey);
    expect({ canaries: again.canaries, checks: again.checks }).toEqual({ canaries: 0, checks: 0 });
  });
});
