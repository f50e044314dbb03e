import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../../src/modules/health/check-scheduler';
import { syncCanaryChecks } from '../../src/modules/health/canary-sync';
import { runCheck } from '../../src/modules/health/checkers/run-check';
import { resolveConnection } from '../../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from '../harness';

const USER = 'svc-monitor';
const PASSWORD = 'stored-connection-password';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const ORIGIN_RULE = /must stay on the origin/;

interface Listener {
  url: string;
  /** The Authorization header of every request, '' when there was none. */
  authorizations: string[];
  close(): Promise<void>;
}

/** Answers 200 JSON to anything; `/redirect?to=<url>` answers 302 to that URL. */
async function startListener(): Promise<Listener> {
  const authorizations: string[] = [];
  const server = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? '');
    const url = new URL(request.url ?? '/', 'http://listener');
    const to = url.pathname === '/redirect' ? url.searchParams.get('to') : null;
    if (to !== null) {
      response.writeHead(302, { location: to }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[]},"hits":{"total":0}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    authorizations,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a stored connection's credentials go only to the connection's own origin", () => {
  let server: TestServer;
  let editor: string;
  let admin: string;
  /** The connection's own service. */
  let service: Listener;
  /** The writer's listener, on another port of the same host: another origin. */
  let attacker: Listener;
  let connectionId: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const context = () => ({
    pool: server.pool,
    resolveConnection: (reference: string) => resolveConnection(server.pool, server.running.context.config.secretKey, reference),
  });

  /** One check of each type that takes both a connection and a target of its own, pointed at `target`. */
  const foreignSpecs = (target: string): Record<string, Array<Record<string, unknown>>> => ({
    http: [{ name: 'steal', connection: 'connection://default/monitoring', url: `${target}/collect` }],
    prometheus: [{ name: 'steal', connection: 'connection://default/monitoring', url: target, query: 'up' }],
    elasticsearch: [{ name: 'steal', connection: 'connection://default/monitoring', url: target, index: 'logs' }],
    alertmanager: [{ name: 'steal', connection: 'connection://default/monitoring', url: target }],
    postgres: [{ name: 'steal', connection: 'connection://default/monitoring', url: 'postgres://collector.example:5432/db' }],
    mongodb: [{ name: 'steal', connection: 'connection://default/monitoring', url: 'mongodb://collector.example:27017' }],
    redis: [{ name: 'steal', connection: 'connection://default/monitoring', addr: 'collector.example:6379' }],
  });

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    admin = await server.cookieFor('admin');
    service = await startListener();
    attacker = await startListener();
    const created = await server.call('POST', '/api/canary/connections', admin, { name: 'monitoring', type: 'http', url: service.url, username: USER, password: PASSWORD });
    expect(created.status, created.text).toBe(201);
    connectionId = String(created.json.id);
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await service.close();
    await attacker.close();
    await server.close();
  });

  it('refuses at save, through the canary API, every check type that names the connection and points elsewhere', async () => {
    for (const [type, checks] of Object.entries(foreignSpecs(attacker.url))) {
      const saved = await server.call('POST', '/api/canary/canaries', editor, { name: `steal-${type}`, spec: { [type]: checks } });
      expect(saved.status, type).toBe(400);
      expect(saved.json, type).toMatchObject({ code: 'OD_CONNECTION_ORIGIN', details: expect.stringMatching(new RegExp(`^${type}\\[0\\]\\.(url|addr)$`)) });
    }
    expect(attacker.authorizations).toEqual([]);
  });

  it('refuses at save through the data API, on insert and on update, for canaries and check rows', async () => {
    const stealing = foreignSpecs(attacker.url).http ?? [];
    const spec = { http: stealing };
    const inserted = await server.call('POST', '/api/db/canaries', editor, { name: 'steal-db', spec });
    expect(inserted.status).toBe(400);
    expect(inserted.json).toMatchObject({ code: 'OD_CONNECTION_ORIGIN', details: 'http[0].url' });

    const harmless = await server.call('POST', '/api/canary/canaries', editor, { name: 'harmless', spec: { http: [{ name: 'own', connection: 'connection://default/monitoring' }] } });
    expect(harmless.status, harmless.text).toBe(201);
    const canaryId = String(harmless.json.id);
    const patched = await server.call('PATCH', `/api/db/canaries?id=eq.${canaryId}`, editor, { spec });
    expect(patched.status).toBe(400);
    const checkId = String((harmless.json.checks as Array<{ id: string }>)[0]?.id);
    const row = await server.call('PATCH', `/api/db/checks?id=eq.${checkId}`, editor, { spec: stealing[0] });
    expect(row.status).toBe(400);
    expect(row.json).toMatchObject({ code: 'OD_CONNECTION_ORIGIN', details: 'url' });
    const stored = await server.pool.query<{ url: string | null }>(`select spec->>'url' as url from checks where id = $1`, [checkId]);
    expect(stored.rows[0]?.url).toBeNull();
  });

  it("allows a URL on the connection's own origin and sends the credentials there", async () => {
    const saved = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'same-origin',
      spec: { http: [{ name: 'health', connection: 'connection://default/monitoring', url: `${service.url}/health` }] },
    });
    expect(saved.status, saved.text).toBe(201);
    const before = service.authorizations.length;
    const result = await runCheck('http', { name: 'health', connection: 'connection://default/monitoring', url: `${service.url}/health` }, context());
    expect(result.pass).toBe(true);
    expect(service.authorizations.slice(before)).toEqual([BASIC]);
  });

  it('fails a spec of that shape stored before the rule when it runs, and the listener receives nothing', async () => {
    const inserted = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('stored-before', $1) returning id`, [
      JSON.stringify({ http: foreignSpecs(attacker.url).http }),
    ]);
    const canaryId = inserted.rows[0]?.id ?? '';
    await syncCanaryChecks(server.pool, canaryId, { reschedule: false });
    await server.pool.query(`update checks set next_runtime = case when canary_id = $1 then now() else now() + interval '1 day' end`, [canaryId]);
    await new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus }).runDue();
    const statuses = await server.pool.query<{ status: boolean; message: string }>(
      'select s.status, s.message from check_statuses s join checks k on k.id = s.check_id where k.canary_id = $1',
      [canaryId],
    );
    expect(statuses.rows).toEqual([{ status: false, message: expect.stringMatching(ORIGIN_RULE) }]);

    const specs = foreignSpecs(attacker.url);
    for (const type of ['prometheus', 'elasticsearch', 'alertmanager'] as const) {
      const result = await runCheck(type, specs[type]?.[0] ?? {}, context());
      expect(result, type).toMatchObject({ pass: false, error: expect.stringMatching(ORIGIN_RULE) });
    }
    expect(attacker.authorizations).toEqual([]);
  });

  it('never follows a redirect, so credentials sent to the own origin do not travel to the Location it names', async () => {
    const url = `${service.url}/redirect?to=${encodeURIComponent(`${attacker.url}/collect`)}`;
    const before = service.authorizations.length;
    const result = await runCheck('http', { name: 'redirected', connection: 'connection://default/monitoring', url }, context());
    expect(result).toMatchObject({ pass: true, details: { code: 302 } });
    expect(service.authorizations.slice(before)).toEqual([BASIC]);
    expect(attacker.authorizations).toEqual([]);
  });

  it("does not lend the stored password to a connection test whose edited URL leaves the connection's origin", async () => {
    const tested = await server.call('POST', '/api/canary/connection/test', admin, { id: connectionId, type: 'http', url: `${attacker.url}/collect` });
    expect(tested.status).toBe(200);
    expect(attacker.authorizations).toEqual(['']);
  });
});
