import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/shared/session-token';
import { newAgentToken } from '../../src/modules/agents/agent-token';
import { startTestServer, type TestServer } from '../harness';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('remote agent tokens', () => {
  let server: TestServer;
  let tokenA: string;
  let agentA: string;
  let agentB: string;

  async function createAgent(name: string): Promise<{ id: string; token: string }> {
    const token = newAgentToken();
    const result = await server.pool.query<{ id: string }>('insert into agents (name, access_token_hash) values ($1, $2) returning id', [name, hashToken(token)]);
    return { id: result.rows[0]?.id ?? '', token };
  }

  beforeAll(async () => {
    server = await startTestServer();
    const a = await createAgent(`sec-a-${randomUUID()}`);
    tokenA = a.token;
    agentA = a.id;
    agentB = (await createAgent(`sec-b-${randomUUID()}`)).id;
  });
  afterAll(async () => {
    await server.close();
  });

  it('cannot change agent B’s or this server’s checks, config items or jobs with agent A’s token', async () => {
    const canaryB = await server.pool.query<{ id: string }>(`insert into canaries (name, agent_id) values ('b-probes', $1) returning id`, [agentB]);
    await server.pool.query(`insert into checks (canary_id, agent_id, type, name, status) values ($1, $2, 'http', 'b-check', 'healthy')`, [canaryB.rows[0]?.id, agentB]);
    const localCanary = await server.pool.query<{ id: string }>(`insert into canaries (name) values ('local-probes') returning id`);
    await server.pool.query(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'local-check', 'healthy')`, [localCanary.rows[0]?.id]);
    const itemB = await server.pool.query<{ id: string }>(
      `insert into config_items (agent_id, type, config_class, name) values ($1, 'File::Yaml', 'File', 'b-item') returning id`,
      [agentB],
    );
    const jobB = await server.pool.query<{ id: string }>(`insert into job_history (name, status, agent_id) values ('B', 'SUCCESS', $1) returning id`, [agentB]);

    const reply = await server.call(
      'POST',
      '/api/agent/push',
      '',
      {
        batchId: randomUUID(),
        rows: [
          { kind: 'check_status', payload: { canary: 'b-probes', type: 'http', name: 'b-check', time: new Date().toISOString(), status: false, agent_id: agentB } },
          { kind: 'check_status', payload: { canary: 'local-probes', type: 'http', name: 'local-check', time: new Date().toISOString(), status: false } },
          { kind: 'config_item', payload: { id: itemB.rows[0]?.id, type: 'File::Yaml', name: 'hijacked', agent_id: agentB } },
          { kind: 'config_item_deleted', payload: { id: itemB.rows[0]?.id } },
          { kind: 'job_history', payload: { id: jobB.rows[0]?.id, name: 'B', status: 'FAILED' } },
        ],
      },
      { authorization: `Bearer ${tokenA}` },
    );
    expect(reply.status, reply.text).toBe(200);

    const checks = await server.pool.query<{ name: string; status: string; n: number }>(
      `select k.name, k.status, (select count(*)::int from check_statuses s where s.check_id = k.id) as n
         from checks k where k.name in ('b-check', 'local-check') and (k.agent_id = $1 or k.agent_id is null) order by k.name`,
      [agentB],
    );
    expect(checks.rows).toEqual([
      { name: 'b-check', status: 'healthy', n: 0 },
      { name: 'local-check', status: 'healthy', n: 0 },
    ]);
    // What A sent under those names became A's own checks, beside B's and the server's.
    const own = await server.pool.query<{ n: number }>(
      `select count(*)::int as n from checks k join agents a on a.id = k.agent_id where k.name in ('b-check', 'local-check') and a.access_token_hash = $1`,
      [hashToken(tokenA)],
    );
    expect(own.rows[0]?.n).toBe(2);
    const item = await server.pool.query('select name, agent_id, deleted_at from config_items where id = $1', [itemB.rows[0]?.id]);
    expect(item.rows).toEqual([{ name: 'b-item', agent_id: agentB, deleted_at: null }]);
    const job = await server.pool.query('select status from job_history where id = $1', [jobB.rows[0]?.id]);
    expect(job.rows).toEqual([{ status: 'SUCCESS' }]);
  });

  it('never hands a sealed secret to an agent: an editor who assigns a canary holding a password to their agent gets no password', async () => {
    const editor = await server.cookieFor('editor');
    const password = `stolen-${randomUUID()}`;
    const spec = { http: [{ name: 'billing', url: 'https://billing.example.com/health', authentication: { username: 'ops', password } }] };
    const created = await server.call('POST', '/api/db/canaries', editor, { name: `exfil-${randomUUID()}`, agent_id: agentA, spec });
    expect(created.status, created.text).toBeLessThan(300);
    const specs = await server.call('GET', '/api/agent/specs', '', undefined, { authorization: `Bearer ${tokenA}` });
    expect(specs.status).toBe(200);
    expect(specs.text).toContain('billing.example.com');
    expect(specs.text).toContain('$encrypted');
    expect(specs.text).not.toContain(password);
  });

  it('is refused by every other API route', async () => {
    const accepted: string[] = [];
    for (const route of server.running.routes) {
      if (!route.url.startsWith('/api/') || route.permission === 'public' || route.permission === 'agent') continue;
      if (route.url.includes(':') || route.url.includes('*') || route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      const response = await fetch(`${server.url}${route.url}`, {
        method: route.method,
        headers: { authorization: `Bearer ${tokenA}`, accept: 'application/json', ...(BODY_METHODS.has(route.method) ? { 'content-type': 'application/json' } : {}) },
        ...(BODY_METHODS.has(route.method) ? { body: '{}' } : {}),
      });
      await response.arrayBuffer();
      if (response.status !== 401) accepted.push(`${route.method} ${route.url} answered ${response.status}`);
    }
    expect(accepted).toEqual([]);
  });

  it('only accepts agent tokens on the agent routes: a signed-in session gets 401 there', async () => {
    const admin = await server.cookieFor('admin');
    const batch = { batchId: randomUUID(), rows: [{ kind: 'check_status', payload: { canary: 'x', type: 'http', name: 'x', time: new Date().toISOString(), status: true } }] };
    expect((await server.call('POST', '/api/agent/push', admin, batch)).status).toBe(401);
    expect((await server.call('POST', '/api/agent/heartbeat', admin, {})).status).toBe(401);
    expect((await server.call('GET', '/api/agent/specs', admin)).status).toBe(401);
    const agentRoutes = server.running.routes.filter((route) => route.permission === 'agent').map((route) => `${route.method} ${route.url}`);
    expect(agentRoutes.sort()).toEqual(['GET /api/agent/specs', 'POST /api/agent/heartbeat', 'POST /api/agent/push']);
  });
});
