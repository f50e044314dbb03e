import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../../src/modules/health/check-scheduler';
import { sealStoredSpecSecrets } from '../../src/modules/health/canary-secrets';
import { encryptSecret } from '../../src/platform/secrets';
import { startHttpServer, type HttpTarget } from '../fixtures/local-targets';
import { startTestServer, type TestServer } from '../harness';

const ADMIN_TOKEN = 'Bearer admin-only-token-0f3a9c';
const SCRAPER_PASSWORD = 'scraper-password-77e1';

interface CanaryReply {
  id: string;
  spec: { http: Array<Record<string, unknown> & { headers?: Record<string, unknown> }> };
  checks: Array<{ id: string; name: string }>;
}

function authorizationOf(request: { headers: Record<string, string | string[] | undefined> } | undefined): string | undefined {
  const value = request?.headers.authorization;
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Issue #31, hole 1: an editor copied an administrator's sealed Authorization header into a check of their own aimed
 * at their own listener, and received the plaintext. Envelopes are now bound to their resource, field and
 * destination (ADR 0062).
 */
describe('a sealed secret opens only in the resource, field and destination it was sealed for', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let service: HttpTarget;
  let attacker: HttpTarget;
  let adminCanary: CanaryReply;
  const previousRole = process.env.OPSDECK_ROLE;

  async function runChecksOf(canaryId: string): Promise<void> {
    await server.pool.query(`update checks set next_runtime = case when canary_id = $1 then now() else now() + interval '1 day' end where deleted_at is null`, [
      canaryId,
    ]);
    const { secretKey } = server.running.context.config;
    await new CheckScheduler({ pool: server.pool, secretKey, bus: server.running.context.bus }).runDue();
  }

  async function lastStatusOf(canaryId: string): Promise<{ status: boolean; message: string | null }> {
    const found = await server.pool.query<{ status: boolean; message: string | null }>(
      `select s.status, s.message from check_statuses s join checks k on k.id = s.check_id where k.canary_id = $1 order by s.time desc limit 1`,
      [canaryId],
    );
    const row = found.rows[0];
    if (row === undefined) throw new Error('the check did not run');
    return row;
  }

  async function storedEnvelope(): Promise<unknown> {
    const read = await server.call('GET', `/api/db/canaries?id=eq.${adminCanary.id}&select=spec`, editor);
    expect(read.status, read.text).toBe(200);
    const [row] = read.json as unknown as Array<{ spec: CanaryReply['spec'] }>;
    const envelope = row?.spec.http[0]?.headers?.Authorization;
    expect(envelope).toMatchObject({ $encrypted: expect.stringMatching(/^[A-Za-z0-9+/]{20,}/) as unknown });
    return envelope;
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    service = await startHttpServer();
    attacker = await startHttpServer();
    const saved = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'admin-api',
      spec: { http: [{ name: 'api', url: `${service.url}/ok`, headers: { Authorization: ADMIN_TOKEN } }] },
    });
    expect(saved.status, saved.text).toBe(201);
    adminCanary = saved.json as unknown as CanaryReply;
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await service.close();
    await attacker.close();
    await server.close();
  });

  it("sends the administrator's header to the administrator's service when the check runs", async () => {
    await runChecksOf(adminCanary.id);
    expect(authorizationOf(service.requests.at(-1))).toBe(ADMIN_TOKEN);
    expect((await lastStatusOf(adminCanary.id)).status).toBe(true);
  });

  it('drops a copied envelope from a canary the editor creates through the canary API, and the run sends nothing', async () => {
    const envelope = await storedEnvelope();
    const before = attacker.requests.length;
    const copied = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'editor-copy',
      spec: { http: [{ name: 'steal', url: `${attacker.url}/ok`, headers: { Authorization: envelope } }] },
    });
    expect(copied.status, copied.text).toBe(201);
    const created = copied.json as unknown as CanaryReply;
    expect(created.spec.http[0]?.headers ?? {}).not.toHaveProperty('Authorization');
    await runChecksOf(created.id);
    const received = attacker.requests.slice(before);
    expect(received.length).toBeGreaterThan(0);
    expect(received.map(authorizationOf)).toEqual(received.map(() => undefined));
  });

  it('drops a copied envelope written through the data API, and even aimed at the same service it stays out of another canary', async () => {
    const envelope = await storedEnvelope();
    const inserted = await server.call(
      'POST',
      '/api/db/canaries',
      editor,
      { name: 'editor-copy-db', spec: { http: [{ name: 'steal', url: `${service.url}/ok`, headers: { Authorization: envelope } }] } },
      { prefer: 'return=representation' },
    );
    expect(inserted.status, inserted.text).toBe(201);
    const [row] = inserted.json as unknown as Array<{ id: string; spec: CanaryReply['spec'] }>;
    expect(row?.spec.http[0]?.headers ?? {}).not.toHaveProperty('Authorization');
  });

  it("drops the sealed header when an editor points the administrator's check at another URL, through either API", async () => {
    const envelope = await storedEnvelope();
    const viaDataApi = await server.call(
      'PATCH',
      `/api/db/canaries?id=eq.${adminCanary.id}`,
      editor,
      { spec: { http: [{ name: 'api', url: `${attacker.url}/ok`, headers: { Authorization: envelope } }] } },
      { prefer: 'return=representation' },
    );
    expect(viaDataApi.status, viaDataApi.text).toBe(200);
    const [patched] = viaDataApi.json as unknown as Array<{ spec: CanaryReply['spec'] }>;
    expect(patched?.spec.http[0]?.headers ?? {}).not.toHaveProperty('Authorization');

    const restored = await server.call('PATCH', `/api/canary/canaries/${adminCanary.id}`, admin, {
      spec: { http: [{ name: 'api', url: `${service.url}/ok`, headers: { Authorization: ADMIN_TOKEN } }] },
    });
    expect(restored.status, restored.text).toBe(200);
    const again = await storedEnvelope();
    const viaCanaryApi = await server.call('PATCH', `/api/canary/canaries/${adminCanary.id}`, editor, {
      spec: { http: [{ name: 'api', url: `${attacker.url}/ok`, headers: { Authorization: again } }] },
    });
    expect(viaCanaryApi.status, viaCanaryApi.text).toBe(200);
    expect((viaCanaryApi.json as unknown as CanaryReply).spec.http[0]?.headers ?? {}).not.toHaveProperty('Authorization');
    const before = attacker.requests.length;
    await runChecksOf(adminCanary.id);
    const received = attacker.requests.slice(before);
    expect(received.length).toBeGreaterThan(0);
    expect(received.map(authorizationOf)).toEqual(received.map(() => undefined));
  });

  it('fails the run, sending nothing, when a copied envelope reaches a check row by a path that skips the write rules', async () => {
    const restored = await server.call('PATCH', `/api/canary/canaries/${adminCanary.id}`, admin, {
      spec: { http: [{ name: 'api', url: `${service.url}/ok`, headers: { Authorization: ADMIN_TOKEN } }] },
    });
    expect(restored.status, restored.text).toBe(200);
    const envelope = await storedEnvelope();
    const own = await server.call('POST', '/api/canary/canaries', editor, { name: 'editor-own', spec: { http: [{ name: 'mine', url: `${attacker.url}/ok` }] } });
    expect(own.status, own.text).toBe(201);
    const ownCanary = own.json as unknown as CanaryReply;
    // What a bug in a write path would leave behind: the envelope stored verbatim in the editor's check.
    await server.pool.query(`update checks set spec = jsonb_set(spec, '{headers}', jsonb_build_object('Authorization', $2::jsonb)) where canary_id = $1`, [
      ownCanary.id,
      JSON.stringify(envelope),
    ]);
    const before = attacker.requests.length;
    await runChecksOf(ownCanary.id);
    expect(attacker.requests.slice(before)).toEqual([]);
    const status = await lastStatusOf(ownCanary.id);
    expect(status.status).toBe(false);
    expect(status.message).toMatch(/sealed for another resource, field or destination; enter it again/);
  });

  it("never opens a scraper's sealed password in a canary", async () => {
    const scraper = await server.call(
      'POST',
      '/api/db/config_scrapers',
      admin,
      { name: 'admin-inventory', spec: { http: [{ url: `${service.url}/ok`, type: 'Inventory::Host', id: '$.id', username: 'svc', password: SCRAPER_PASSWORD }] } },
      { prefer: 'return=representation' },
    );
    expect(scraper.status, scraper.text).toBe(201);
    const [row] = scraper.json as unknown as Array<{ spec: { http: Array<{ password: unknown }> } }>;
    const envelope = row?.spec.http[0]?.password;
    expect(JSON.stringify(envelope)).not.toContain(SCRAPER_PASSWORD);
    const copied = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'editor-scraper-copy',
      spec: { http: [{ name: 'steal', url: `${service.url}/ok`, authentication: { username: 'svc', password: envelope } }] },
    });
    expect(copied.status, copied.text).toBe(201);
    const created = copied.json as unknown as CanaryReply;
    expect(created.spec.http[0]?.authentication).not.toHaveProperty('password');
  });

  it('refuses an envelope of the older, unbound format on every write, since a reader may have kept one', async () => {
    const legacy = { $encrypted: encryptSecret(server.running.context.config.secretKey, ADMIN_TOKEN).toString('base64') };
    const refused = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'editor-legacy',
      spec: { http: [{ name: 'old', url: `${attacker.url}/ok`, headers: { Authorization: legacy } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_SPEC_SECRET', details: 'http[0].headers.Authorization' });
  });

  it('binds envelopes stored before the change where they stand, once, and the check keeps working', async () => {
    const legacy = { $encrypted: encryptSecret(server.running.context.config.secretKey, ADMIN_TOKEN).toString('base64') };
    const spec = { http: [{ name: 'api', url: `${service.url}/ok`, headers: { Authorization: legacy } }] };
    await server.pool.query(`update canaries set spec = $2 where id = $1`, [adminCanary.id, JSON.stringify(spec)]);
    await server.pool.query(`update checks set spec = $2 where canary_id = $1`, [adminCanary.id, JSON.stringify(spec.http[0])]);
    const report = await sealStoredSpecSecrets(server.pool, server.running.context.config.secretKey);
    expect(report.canaries).toBeGreaterThanOrEqual(1);
    expect(report.problems).toEqual([]);
    const stored = await server.pool.query<{ spec: CanaryReply['spec'] }>('select spec from canaries where id = $1', [adminCanary.id]);
    expect(stored.rows[0]?.spec.http[0]?.headers?.Authorization).not.toEqual(legacy);
    const before = service.requests.length;
    await runChecksOf(adminCanary.id);
    expect(authorizationOf(service.requests.slice(before).at(-1))).toBe(ADMIN_TOKEN);
    const repeat = await sealStoredSpecSecrets(server.pool, server.running.context.config.secretKey);
    expect(repeat.canaries).toBe(0);
  });

  it('refuses a PATCH of a spec holding secrets that does not name its one row, and an upsert row without an id', async () => {
    const unpinned = await server.call('PATCH', `/api/db/canaries?name=eq.admin-api`, editor, {
      spec: { http: [{ name: 'api', url: `${attacker.url}/ok`, headers: { Authorization: 'Bearer typed-again' } }] },
    });
    expect(unpinned.status).toBe(400);
    expect(unpinned.json).toMatchObject({ code: 'OD_SECRET_SCOPE' });
    const upsert = await server.call(
      'POST',
      '/api/db/canaries?on_conflict=id',
      editor,
      [{ name: 'upserted', spec: { http: [{ name: 'api', url: `${attacker.url}/ok`, headers: { Authorization: 'Bearer typed' } }] } }],
      { prefer: 'resolution=merge-duplicates' },
    );
    expect(upsert.status).toBe(400);
    expect(upsert.json).toMatchObject({ code: 'OD_SECRET_SCOPE' });
  });
});
