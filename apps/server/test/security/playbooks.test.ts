import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { createConnection } from '../../src/modules/connections/connection-store';
import { PlaybookWorker } from '../../src/modules/playbooks/playbook-worker';
import { startTestServer, type TestServer } from '../harness';

interface Peer {
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

async function startPeer(): Promise<Peer> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request.headers);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const CONNECTION_PASSWORD = 'playbook-connection-secret';
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * What a signed-in user below admin could try to make the server do through playbooks: write a script or a query that
 * runs with the server's reach or a stored connection's credentials, slip a run past the run request's checks through
 * the data API, inject shell through a parameter, or send a connection's secret to an address of their choosing.
 */
describe('playbook attacks fail', () => {
  let server: TestServer;
  let worker: PlaybookWorker;
  let insider: Peer;
  let outsider: Peer;
  const cookies = { admin: '', editor: '', responder: '' };
  const previousRole = process.env.OPSDECK_ROLE;

  async function adminPlaybook(spec: Record<string, unknown>): Promise<string> {
    const saved = await server.call('POST', '/api/db/playbooks', cookies.admin, { name: `guarded-${randomUUID().slice(0, 8)}`, spec }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    return (saved.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
  }

  async function runToEnd(playbookId: string, params: Record<string, string>): Promise<PlaybookRun> {
    const requested = await server.call('POST', '/api/playbook/run', cookies.editor, { id: playbookId, params });
    expect(requested.status, requested.text).toBe(201);
    const runId = String(requested.json.run_id);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const reply = await server.call('GET', `/api/playbook/run/${runId}`, cookies.editor);
      const run = reply.json as unknown as PlaybookRun;
      if (FINAL.has(run.status)) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
      await worker.runDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    // The api role starts no worker: the test drives one, so nothing runs behind its back.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    insider = await startPeer();
    outsider = await startPeer();
    worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 3000 });
    for (const role of Object.keys(cookies) as Array<keyof typeof cookies>) cookies[role] = await server.cookieFor(role);
    await createConnection(
      server.pool,
      server.running.context.config.secretKey,
      { name: 'insider-api', type: 'http', url: `${insider.url}/api`, username: 'opsdeck', password: CONNECTION_PASSWORD },
      null,
    );
  });
  afterAll(async () => {
    if (previousRole === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_ROLE');
    else process.env.OPSDECK_ROLE = previousRole;
    await server.close();
    await insider.close();
    await outsider.close();
  });

  it.each([
    ['an exec script', { actions: [{ name: 'pwn', exec: { script: 'cat /proc/1/environ' } }] }],
    ['an sql query with a stored connection', { actions: [{ name: 'pwn', sql: { connection: 'connection://default/insider-api', query: 'drop table users' } }] }],
    ['an exec action in a spec that does not validate', { actions: [{ exec: {} }] }],
    ['an exec action in YAML text that does not parse', 'actions:\n  - name: pwn\n    exec: {script: "id"\n  ['],
  ])('refuses an editor saving %s, by POST, filtered PATCH and upsert, and stores nothing', async (_label, spec) => {
    const name = `attack-${randomUUID().slice(0, 8)}`;
    const created = await server.call('POST', '/api/db/playbooks', cookies.editor, { name, spec });
    expect(created.status, created.text).toBe(403);
    expect(created.json).toMatchObject({ code: 'OD_EXEC_FORBIDDEN' });
    const harmless = await adminPlaybook({ actions: [{ name: 'ping', http: { url: `${insider.url}/ping` } }] });
    const patched = await server.call('PATCH', `/api/db/playbooks?id=eq.${harmless}`, cookies.editor, { spec });
    expect(patched.status, patched.text).toBe(403);
    const upserted = await server.call('POST', '/api/db/playbooks', cookies.editor, { id: harmless, name: 'x', spec }, { prefer: 'resolution=merge-duplicates' });
    expect(upserted.status, upserted.text).toBe(403);
    const stored = await server.pool.query<{ n: number }>(
      `select count(*)::int as n from playbooks where name = $1 or (id = $2 and spec::text not like '%ping%')`,
      [name, harmless],
    );
    expect(stored.rows[0]?.n).toBe(0);
  });

  it('refuses a run written straight into the run tables, even by an admin, so no unchecked spec ever reaches a worker', async () => {
    const playbook = await adminPlaybook({ actions: [{ name: 'ping', http: { url: `${insider.url}/ping` } }] });
    const injected = { playbook_id: playbook, status: 'pending', spec: { actions: [{ name: 'pwn', exec: { script: 'id' } }] } };
    for (const cookie of [cookies.editor, cookies.admin]) {
      const inserted = await server.call('POST', '/api/db/playbook_runs', cookie, injected);
      expect(inserted.status, inserted.text).toBe(405);
    }
    const done = await runToEnd(playbook, {});
    const rewound = await server.call('PATCH', `/api/db/playbook_runs?id=eq.${done.id}`, cookies.admin, { status: 'pending', spec: injected.spec });
    expect(rewound.status, rewound.text).toBe(405);
    const actions = await server.call('POST', '/api/db/playbook_run_actions', cookies.admin, { playbook_run_id: done.id, name: 'pwn' });
    expect(actions.status, actions.text).toBe(405);
    const approvals = await server.call('POST', '/api/db/playbook_run_approvals', cookies.editor, { playbook_run_id: done.id });
    expect(approvals.status, approvals.text).toBe(405);
    const rows = await server.pool.query<{ n: number }>(`select count(*)::int as n from playbook_runs where spec::text like '%pwn%'`);
    expect(rows.rows[0]?.n).toBe(0);
  });

  it('refuses a responder requesting a run', async () => {
    const playbook = await adminPlaybook({ actions: [{ name: 'ping', http: { url: `${insider.url}/ping` } }] });
    const refused = await server.call('POST', '/api/playbook/run', cookies.responder, { id: playbook });
    expect(refused.status).toBe(403);
  });

  it.runIf(process.getuid?.() === 0)("keeps a parameter an editor sends as inert text in an admin's script: no shell runs from it", async () => {
    const marker = `/tmp/opsdeck-pwned-${randomUUID()}`;
    const playbook = await adminPlaybook({
      parameters: [{ name: 'target', type: 'text' }],
      actions: [{ name: 'echo', exec: { script: 'echo "target: $PARAM_TARGET"', env: [{ name: 'ALSO', value: '{{ params.target }}' }] } }],
    });
    const run = await runToEnd(playbook, { target: `$(touch ${marker}); \`touch ${marker}\`` });
    expect(run.status).toBe('completed');
    expect(run.actions[0]?.result?.stdout).toContain(`$(touch ${marker})`);
    expect(existsSync(marker)).toBe(false);
  });

  it("never sends a connection's credentials to an address a parameter names", async () => {
    const playbook = await adminPlaybook({
      parameters: [{ name: 'path', type: 'text' }],
      actions: [{ name: 'call', http: { connection: 'connection://default/insider-api', url: '{{ params.path }}' } }],
    });
    const run = await runToEnd(playbook, { path: `${outsider.url}/steal` });
    expect(run.status).toBe('failed');
    expect(run.actions[0]?.error).toMatch(/origin/i);
    expect(outsider.seen).toHaveLength(0);
    expect(JSON.stringify(run)).not.toContain(CONNECTION_PASSWORD);
    const inside = await runToEnd(playbook, { path: '/status' });
    expect(inside.status).toBe('completed');
    expect(insider.seen.at(-1)?.authorization).toBe(`Basic ${Buffer.from(`opsdeck:${CONNECTION_PASSWORD}`).toString('base64')}`);
    expect(JSON.stringify(inside)).not.toContain(CONNECTION_PASSWORD);
  });
});
