import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/shared/session-token';
import { newAgentToken } from '../src/modules/agents/agent-token';
import { startTestServer, type JsonReply, type TestServer } from './harness';

interface Agent {
  id: string;
  token: string;
}

function statusRow(check: string, time: Date, status = true, canary = 'edge-probes'): { kind: 'check_status'; payload: Record<string, unknown> } {
  return {
    kind: 'check_status',
    payload: { canary, namespace: 'default', type: 'http', name: check, time: time.toISOString(), status, duration: 12, message: 'ok' },
  };
}

describe('agent push ingestion', () => {
  let server: TestServer;

  async function createAgent(name: string): Promise<Agent> {
    const token = newAgentToken();
    const result = await server.pool.query<{ id: string }>('insert into agents (name, access_token_hash) values ($1, $2) returning id', [
      name,
      hashToken(token),
    ]);
    return { id: result.rows[0]?.id ?? '', token };
  }

  async function push(token: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
    return server.call('POST', '/api/agent/push', '', body, { authorization: `Bearer ${token}`, ...headers });
  }

  async function statusTimes(agentId: string, check: string): Promise<string[]> {
    const result = await server.pool.query<{ time: Date | string }>(
      `select s.time from check_statuses s join checks k on k.id = s.check_id where k.agent_id = $1 and k.name = $2 order by s.time`,
      [agentId, check],
    );
    return result.rows.map((row) => new Date(row.time).toISOString());
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('applies a batch of check statuses, job history and config items attributed to the pushing agent', async () => {
    const agent = await createAgent(`push-${randomUUID()}`);
    const base = Date.now() - 60_000;
    const configId = randomUUID();
    const childId = randomUUID();
    const jobId = randomUUID();
    const reply = await push(agent.token, {
      batchId: randomUUID(),
      rows: [
        statusRow('api', new Date(base)),
        statusRow('api', new Date(base + 1000), false),
        { kind: 'config_item', payload: { id: configId, type: 'File::Yaml', name: 'app.yaml', external_id: ['app.yaml'], config: { a: 1 } } },
        { kind: 'config_item', payload: { id: childId, type: 'File::Yaml', name: 'child.yaml', parent_id: configId } },
        { kind: 'config_change', payload: { id: randomUUID(), config_id: configId, change_type: 'diff', summary: 'a changed' } },
        { kind: 'job_history', payload: { id: jobId, name: 'Scraper', status: 'RUNNING' } },
        { kind: 'job_history', payload: { id: jobId, name: 'Scraper', status: 'SUCCESS', success_count: 2 } },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ applied: 7, duplicate: false });

    expect(await statusTimes(agent.id, 'api')).toEqual([new Date(base).toISOString(), new Date(base + 1000).toISOString()]);
    const check = await server.pool.query<{ status: string; canary_agent: string }>(
      `select k.status, c.agent_id as canary_agent from checks k join canaries c on c.id = k.canary_id where k.agent_id = $1`,
      [agent.id],
    );
    expect(check.rows).toEqual([{ status: 'unhealthy', canary_agent: agent.id }]);
    const items = await server.pool.query<{ id: string; agent_id: string; parent_id: string | null; config_class: string }>(
      'select id, agent_id, parent_id, config_class from config_items where id = any($1) order by name',
      [[configId, childId]],
    );
    expect(items.rows).toEqual([
      { id: configId, agent_id: agent.id, parent_id: null, config_class: 'File' },
      { id: childId, agent_id: agent.id, parent_id: configId, config_class: 'File' },
    ]);
    const changes = await server.pool.query<{ n: number }>('select count(*)::int as n from config_changes where config_id = $1', [configId]);
    expect(changes.rows[0]?.n).toBe(1);
    const job = await server.pool.query<{ status: string; agent_id: string; success_count: number }>(
      'select status, agent_id, success_count from job_history where id = $1',
      [jobId],
    );
    expect(job.rows).toEqual([{ status: 'SUCCESS', agent_id: agent.id, success_count: 2 }]);
    const received = await server.pool.query<{ last_received: Date | null }>('select last_received from agents where id = $1', [agent.id]);
    expect(received.rows[0]?.last_received).not.toBeNull();
  });

  it('shows pushed checks under the agent on the health dashboard’s By Agent tab', async () => {
    const name = `dash-${randomUUID()}`;
    const agent = await createAgent(name);
    const reply = await push(agent.token, { batchId: randomUUID(), rows: [statusRow('dashboard-visible', new Date(Date.now() - 3000), true, 'dash-probes')] });
    expect(reply.status).toBe(200);
    const admin = await server.cookieFor('admin');
    const summary = await server.call('GET', '/api/canary/api/summary?timeRange=1h&tabBy=agent&pageIndex=0&pageSize=200', admin);
    expect(summary.status, summary.text).toBe(200);
    expect(summary.text).toContain(name);
    expect(summary.text).toContain('dashboard-visible');
  });

  it('answers a replayed batch id with duplicate and changes nothing', async () => {
    const agent = await createAgent(`replay-${randomUUID()}`);
    const batch = { batchId: randomUUID(), rows: [statusRow('replayed', new Date(Date.now() - 5000))] };
    expect((await push(agent.token, batch)).json).toEqual({ applied: 1, duplicate: false });
    const again = await push(agent.token, { ...batch, rows: [statusRow('replayed', new Date(Date.now() - 1000))] });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ applied: 0, duplicate: true });
    expect(await statusTimes(agent.id, 'replayed')).toHaveLength(1);
  });

  it('keeps the order of batches: the check shows the status of the latest result', async () => {
    const agent = await createAgent(`order-${randomUUID()}`);
    const base = Date.now() - 100_000;
    for (let i = 0; i < 5; i += 1) {
      const reply = await push(agent.token, { batchId: randomUUID(), rows: [statusRow('ordered', new Date(base + i * 1000), i % 2 === 0)] });
      expect(reply.status).toBe(200);
    }
    expect(await statusTimes(agent.id, 'ordered')).toEqual([0, 1, 2, 3, 4].map((i) => new Date(base + i * 1000).toISOString()));
    const check = await server.pool.query<{ status: string; last_runtime: Date | string }>('select status, last_runtime from checks where agent_id = $1', [agent.id]);
    expect(check.rows[0]?.status).toBe('healthy');
    expect(new Date(check.rows[0]?.last_runtime ?? 0).toISOString()).toBe(new Date(base + 4000).toISOString());
  });

  it('refuses to let one agent overwrite the config items and jobs of another agent or of this server', async () => {
    const owner = await createAgent(`owner-${randomUUID()}`);
    const intruder = await createAgent(`intruder-${randomUUID()}`);
    const owned = randomUUID();
    await push(owner.token, { batchId: randomUUID(), rows: [{ kind: 'config_item', payload: { id: owned, type: 'File::Yaml', name: 'owned' } }] });
    const local = await server.pool.query<{ id: string }>(
      `insert into config_items (type, config_class, name) values ('File::Yaml', 'File', 'local') returning id`,
    );
    const localId = local.rows[0]?.id ?? '';
    const localJob = await server.pool.query<{ id: string }>(`insert into job_history (name, status) values ('Local', 'SUCCESS') returning id`);
    const localJobId = localJob.rows[0]?.id ?? '';

    const reply = await push(intruder.token, {
      batchId: randomUUID(),
      rows: [
        { kind: 'config_item', payload: { id: owned, type: 'File::Yaml', name: 'stolen' } },
        { kind: 'config_item', payload: { id: localId, type: 'File::Yaml', name: 'stolen' } },
        { kind: 'config_item_deleted', payload: { id: owned } },
        { kind: 'config_change', payload: { id: randomUUID(), config_id: localId, change_type: 'diff' } },
        { kind: 'job_history', payload: { id: localJobId, name: 'Local', status: 'FAILED' } },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    const items = await server.pool.query<{ name: string; agent_id: string | null; deleted_at: Date | null }>(
      'select name, agent_id, deleted_at from config_items where id = any($1) order by name',
      [[owned, localId]],
    );
    expect(items.rows).toEqual([
      { name: 'local', agent_id: null, deleted_at: null },
      { name: 'owned', agent_id: owner.id, deleted_at: null },
    ]);
    const changes = await server.pool.query<{ n: number }>('select count(*)::int as n from config_changes where config_id = $1', [localId]);
    expect(changes.rows[0]?.n).toBe(0);
    const job = await server.pool.query<{ status: string; agent_id: string | null }>('select status, agent_id from job_history where id = $1', [localJobId]);
    expect(job.rows).toEqual([{ status: 'SUCCESS', agent_id: null }]);
  });

  it('links a pushed item to its scraper only when the scraper is assigned to the agent, and updates a folded change’s count', async () => {
    const agent = await createAgent(`links-${randomUUID()}`);
    const other = await createAgent(`links-other-${randomUUID()}`);
    const scraper = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, agent_id, spec) values ($1, $2, '{}') returning id`, [
      `agent-files-${randomUUID()}`,
      agent.id,
    ]);
    const foreign = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, agent_id, spec) values ($1, $2, '{}') returning id`, [
      `other-files-${randomUUID()}`,
      other.id,
    ]);
    const linked = randomUUID();
    const unlinked = randomUUID();
    const change = randomUUID();
    const first = await push(agent.token, {
      batchId: randomUUID(),
      rows: [
        { kind: 'config_item', payload: { id: linked, type: 'File::Yaml', name: 'linked', scraper_id: scraper.rows[0]?.id } },
        { kind: 'config_item', payload: { id: unlinked, type: 'File::Yaml', name: 'unlinked', scraper_id: foreign.rows[0]?.id } },
        { kind: 'config_change', payload: { id: change, config_id: linked, change_type: 'diff', count: 1 } },
        { kind: 'config_change', payload: { id: change, config_id: linked, change_type: 'diff', count: 2 } },
      ],
    });
    expect(first.status, first.text).toBe(200);
    const second = await push(agent.token, {
      batchId: randomUUID(),
      rows: [{ kind: 'config_change', payload: { id: change, config_id: linked, change_type: 'diff', count: 5 } }],
    });
    expect(second.status, second.text).toBe(200);
    const items = await server.pool.query<{ name: string; scraper_id: string | null }>(
      'select name, scraper_id from config_items where id = any($1) order by name',
      [[linked, unlinked]],
    );
    expect(items.rows).toEqual([
      { name: 'linked', scraper_id: scraper.rows[0]?.id },
      { name: 'unlinked', scraper_id: null },
    ]);
    const counted = await server.pool.query<{ count: number }>('select count from config_changes where id = $1', [change]);
    expect(counted.rows).toEqual([{ count: 5 }]);
  });

  it('ignores an agent id in the payload and files results under the token’s agent', async () => {
    const agent = await createAgent(`honest-${randomUUID()}`);
    const other = await createAgent(`other-${randomUUID()}`);
    const row = statusRow('spoofed', new Date(Date.now() - 2000));
    const reply = await push(agent.token, { batchId: randomUUID(), rows: [{ ...row, payload: { ...row.payload, agent_id: other.id } }] });
    expect(reply.status).toBe(200);
    expect(await statusTimes(agent.id, 'spoofed')).toHaveLength(1);
    expect(await statusTimes(other.id, 'spoofed')).toHaveLength(0);
  });

  it('refuses a wrong token, a deleted agent’s token and a session cookie with 401', async () => {
    const agent = await createAgent(`gone-${randomUUID()}`);
    const batch = { batchId: randomUUID(), rows: [statusRow('x', new Date())] };
    expect((await push(newAgentToken(), batch)).status).toBe(401);
    await server.pool.query('update agents set deleted_at = now() where id = $1', [agent.id]);
    expect((await push(agent.token, batch)).status).toBe(401);
    const admin = await server.cookieFor('admin');
    const viaCookie = await server.call('POST', '/api/agent/push', admin, batch);
    expect(viaCookie.status).toBe(401);
    const sessionToken = admin.slice(admin.indexOf('=') + 1);
    expect((await push(sessionToken, batch)).status).toBe(401);
    expect((await server.call('POST', '/api/agent/heartbeat', admin, {})).status).toBe(401);
    expect((await server.call('GET', '/api/agent/specs', admin)).status).toBe(401);
  });

  it('answers coded 400s for a malformed or oversized batch', async () => {
    const agent = await createAgent(`bad-${randomUUID()}`);
    const missingId = await push(agent.token, { rows: [statusRow('x', new Date())] });
    expect(missingId.status).toBe(400);
    expect(missingId.json.code).toBe('OD_VALIDATION');
    const badKind = await push(agent.token, { batchId: randomUUID(), rows: [{ kind: 'people', payload: {} }] });
    expect(badKind.status).toBe(400);
    const tooMany = await push(agent.token, {
      batchId: randomUUID(),
      rows: Array.from({ length: 5001 }, (_, i) => statusRow('x', new Date(Date.now() - i))),
    });
    expect(tooMany.status).toBe(400);
    const empty = await push(agent.token, { batchId: randomUUID(), rows: [] });
    expect(empty.status).toBe(400);
  });

  it('counts every applied batch in the agent’s ingestion job of the hour, and a refused one as its error with a 400', async () => {
    const agent = await createAgent(`ingest-${randomUUID()}`);
    for (let i = 0; i < 2; i += 1) {
      const reply = await push(agent.token, { batchId: randomUUID(), rows: [statusRow('ingested', new Date(Date.now() - 10_000 + i)), statusRow('other', new Date(Date.now() - 10_000 + i))] });
      expect(reply.status).toBe(200);
    }
    const refused = await push(agent.token, {
      batchId: randomUUID(),
      rows: [{ kind: 'job_history', payload: { id: randomUUID(), name: 'Scraper', status: 'SUCCESS', time_start: 'not a time' } }],
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.code).toBe('OD_INVALID_VALUE');
    const jobs = await server.pool.query<{ status: string; success_count: number; error_count: number; resource_type: string; details: { batches: number; errors: string[] } }>(
      `select status, success_count, error_count, resource_type, details from job_history where name = 'AgentPushIngestion' and resource_id = $1`,
      [agent.id],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]).toMatchObject({ status: 'WARNING', success_count: 4, error_count: 1, resource_type: 'agent' });
    expect(jobs.rows[0]?.details.batches).toBe(3);
    expect(jobs.rows[0]?.details.errors[0]).toMatch(/not a time/);
  });

  it('queues check.failed and check.passed with the batch when a pushed result changes a check’s status, and nothing when it stays', async () => {
    const agent = await createAgent(`events-${randomUUID()}`);
    await server.pool.query(`insert into event_queue_subscriptions (consumer, name) values ('agent-push-test', 'check.failed'), ('agent-push-test', 'check.passed') on conflict do nothing`);
    try {
      const base = Date.now() - 50_000;
      const send = async (offset: number, status: boolean) => {
        const reply = await push(agent.token, { batchId: randomUUID(), rows: [statusRow('flapping', new Date(base + offset), status)] });
        expect(reply.status).toBe(200);
      };
      await send(0, true);
      await send(1000, true);
      await send(2000, false);
      await send(3000, false);
      await send(4000, true);
      const events = await server.pool.query<{ name: string; previous: string | null }>(
        `select q.name, q.properties ->> 'previous_status' as previous from event_queue q join checks k on k.id = (q.properties ->> 'check_id')::uuid
          where q.consumer = 'agent-push-test' and k.agent_id = $1 order by q.created_at, q.id`,
        [agent.id],
      );
      expect(events.rows.map((row) => row.name)).toEqual(['check.passed', 'check.failed', 'check.passed']);
      expect(events.rows.map((row) => row.previous)).toEqual([null, 'healthy', 'unhealthy']);
    } finally {
      await server.pool.query(`delete from event_queue_subscriptions where consumer = 'agent-push-test'`);
      await server.pool.query(`delete from event_queue where consumer = 'agent-push-test'`);
    }
  });

  it('records a heartbeat in last_seen, hostname and version', async () => {
    const agent = await createAgent(`beat-${randomUUID()}`);
    const before = Date.now();
    const reply = await server.call('POST', '/api/agent/heartbeat', '', { hostname: 'edge-1', version: '1.2.3' }, { authorization: `Bearer ${agent.token}` });
    expect(reply.status, reply.text).toBe(200);
    const row = await server.pool.query<{ last_seen: Date | string; hostname: string; version: string }>(
      'select last_seen, hostname, version from agents where id = $1',
      [agent.id],
    );
    expect(row.rows[0]?.hostname).toBe('edge-1');
    expect(row.rows[0]?.version).toBe('1.2.3');
    // The Online rule (packages/shared agent-status) compares last_seen with now: it is fresh after a heartbeat.
    expect(Math.abs(new Date(row.rows[0]?.last_seen ?? 0).getTime() - before)).toBeLessThan(61_000);
  });

  it('lists the canaries and scrapers assigned to the agent and nobody else’s', async () => {
    const agent = await createAgent(`specs-${randomUUID()}`);
    const other = await createAgent(`specs-other-${randomUUID()}`);
    await server.pool.query(`insert into canaries (name, agent_id, spec) values ('mine', $1, '{"http":[{"name":"a","url":"http://x"}]}')`, [agent.id]);
    await server.pool.query(`insert into canaries (name, agent_id) values ('theirs', $1)`, [other.id]);
    await server.pool.query(`insert into config_scrapers (name, agent_id, spec) values ('files', $1, '{"file":[]}')`, [agent.id]);
    const reply = await server.call('GET', '/api/agent/specs', '', undefined, { authorization: `Bearer ${agent.token}` });
    expect(reply.status, reply.text).toBe(200);
    const names = (key: string): unknown[] => (reply.json[key] as Array<{ name: string }>).map((row) => row.name);
    expect(names('canaries')).toEqual(['mine']);
    expect(names('scrapers')).toEqual(['files']);
  });
});
