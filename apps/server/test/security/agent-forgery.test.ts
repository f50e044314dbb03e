import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';

interface Agent {
  id: string;
  token: string;
}

describe('an agent token forging history under the server’s or another agent’s names', () => {
  let server: TestServer;
  let editor: string;
  let forger: Agent;
  let other: Agent;
  let serverCanary: string;
  let serverCheck: string;
  let otherCanary: string;
  let otherCheck: string;

  /** What an editor does to get an agent token: the agent is created through the API, which shows the token once. */
  async function registerAgent(): Promise<Agent> {
    const reply = await server.call('POST', '/api/agents', editor, { name: `forgery-${randomUUID()}` });
    expect(reply.status, reply.text).toBe(201);
    return { id: String(reply.json.id), token: String(reply.json.access_token) };
  }

  async function push(agent: Agent, rows: unknown[]): Promise<void> {
    const reply = await server.call('POST', '/api/agent/push', '', { batchId: randomUUID(), rows }, { authorization: `Bearer ${agent.token}` });
    expect(reply.status, reply.text).toBe(200);
  }

  async function insertCanary(name: string, agentId: string | null): Promise<{ canary: string; check: string }> {
    const canary = await server.pool.query<{ id: string }>('insert into canaries (name, agent_id) values ($1, $2) returning id', [name, agentId]);
    const canaryId = canary.rows[0]?.id ?? '';
    const check = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, agent_id, type, name, status, last_runtime) values ($1, $2, 'http', $3, 'healthy', now() - interval '1 minute') returning id`,
      [canaryId, agentId, `${name}-check`],
    );
    return { canary: canaryId, check: check.rows[0]?.id ?? '' };
  }

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    forger = await registerAgent();
    other = await registerAgent();
    ({ canary: serverCanary, check: serverCheck } = await insertCanary('payments', null));
    ({ canary: otherCanary, check: otherCheck } = await insertCanary('edge', other.id));
    await server.pool.query(`insert into job_history (name, resource_type, resource_id, status) values ('Canary', 'canary', $1, 'SUCCESS')`, [serverCanary]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('records no check failure against the server’s or another agent’s check, by id or by name, and files what it records as the agent’s', async () => {
    const failing = (canary: string, name: string, extra: Record<string, unknown>) => ({
      kind: 'check_status',
      payload: { canary, type: 'http', name, time: new Date().toISOString(), status: false, error: 'connection refused', ...extra },
    });
    await push(forger, [
      failing('payments', 'payments-check', { check_id: serverCheck, id: serverCheck, canary_id: serverCanary, agent_id: null }),
      failing('edge', 'edge-check', { check_id: otherCheck, canary_id: otherCanary, agent_id: other.id }),
    ]);

    const untouched = await server.pool.query<{ id: string; status: string; agent_id: string | null; results: number }>(
      `select k.id, k.status, k.agent_id, (select count(*)::int from check_statuses s where s.check_id = k.id) as results
         from checks k where k.id = any($1::uuid[]) order by k.name desc`,
      [[serverCheck, otherCheck]],
    );
    expect(untouched.rows).toEqual([
      { id: serverCheck, status: 'healthy', agent_id: null, results: 0 },
      { id: otherCheck, status: 'healthy', agent_id: other.id, results: 0 },
    ]);
    const events = await server.pool.query<{ check_id: string; agent_id: string | null }>(
      `select properties ->> 'check_id' as check_id, properties ->> 'agent_id' as agent_id from event_queue
        where name = 'check.failed' and properties ->> 'name' in ('payments-check', 'edge-check')`,
    );
    expect(events.rows).toHaveLength(2);
    expect(events.rows.map((event) => event.check_id)).not.toContain(serverCheck);
    expect(events.rows.map((event) => event.check_id)).not.toContain(otherCheck);
    expect(new Set(events.rows.map((event) => event.agent_id))).toEqual(new Set([forger.id]));

    // What it pushed under those names exists, as the forger's own canaries and checks, and the health summary says so.
    const recorded = await server.pool.query<{ name: string; agent_id: string; canary_agent_id: string; results: number }>(
      `select k.name, k.agent_id, c.agent_id as canary_agent_id, (select count(*)::int from check_statuses s where s.check_id = k.id) as results
         from checks k join canaries c on c.id = k.canary_id
        where k.name in ('payments-check', 'edge-check') and k.id <> all($1::uuid[]) order by k.name`,
      [[serverCheck, otherCheck]],
    );
    expect(recorded.rows).toEqual([
      { name: 'edge-check', agent_id: forger.id, canary_agent_id: forger.id, results: 1 },
      { name: 'payments-check', agent_id: forger.id, canary_agent_id: forger.id, results: 1 },
    ]);
  });

  it('links no job run to the server’s or another agent’s resources, dates none in the future, and shows each as the agent’s', async () => {
    const future = '2100-01-01T00:00:00Z';
    const ownScraper = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, agent_id, spec) values ('own', $1, '{}') returning id`, [forger.id]);
    const job = (name: string, resourceType: string, resourceId: string, extra: Record<string, unknown> = {}) => ({
      kind: 'job_history',
      payload: { id: randomUUID(), name, resource_type: resourceType, resource_id: resourceId, status: 'FAILED', error_count: 1, created_at: future, time_start: future, ...extra },
    });
    const forged = [
      job('Canary', 'canary', serverCanary),
      job('Canary', 'canary', otherCanary),
      job('Canary', 'check', serverCheck),
      job('AgentPushIngestion', 'agent', other.id),
      job('RetentionCleanup', 'retention', randomUUID()),
    ];
    const owned = job('Scraper', 'config_scraper', ownScraper.rows[0]?.id ?? '', { status: 'SUCCESS', error_count: 0 });
    await push(forger, [...forged, owned]);

    const server_ = await server.pool.query<{ job_status: string | null; job_name: string | null; job_last_failed: string | null }>(
      'select job_status, job_name, job_last_failed from canaries_with_status where id = $1',
      [serverCanary],
    );
    expect(server_.rows).toEqual([{ job_status: 'SUCCESS', job_name: 'Canary', job_last_failed: null }]);
    const others = await server.pool.query<{ job_status: string | null }>('select job_status from canaries_with_status where id = $1', [otherCanary]);
    expect(others.rows).toEqual([{ job_status: null }]);
    const ingestionOfOther = await server.pool.query<{ n: number }>(
      `select count(*)::int as n from job_history where name = 'AgentPushIngestion' and resource_id = $1`,
      [other.id],
    );
    expect(ingestionOfOther.rows[0]?.n).toBe(0);

    const ids = [...forged, owned].map((row) => row.payload.id);
    const rows = await server.pool.query<{ id: string; name: string; agent: { id: string } | null; resource_id: string | null; future: boolean }>(
      `select id, name, agent, resource_id, created_at > now() or time_start > now() as future from job_histories where id = any($1::uuid[])`,
      [ids],
    );
    expect(rows.rows).toHaveLength(ids.length);
    for (const row of rows.rows) {
      expect(row.agent?.id).toBe(forger.id);
      expect(row.future).toBe(false);
      expect(row.resource_id).toBe(row.id === owned.payload.id ? ownScraper.rows[0]?.id : null);
    }
  });

  it('cannot claim the id of another agent’s ingestion row before that agent pushes, so the other agent’s record stays the server’s', async () => {
    // The id the server once derived from the agent id and the hour alone, which any agent could compute.
    const guessed = await server.pool.query<{ id: string }>(`select md5($1::text || date_trunc('hour', now())::text)::uuid as id`, [other.id]);
    const guessedId = guessed.rows[0]?.id ?? '';
    // The row a push of that id files (it passes the push schema in the hours whose md5 has UUID version and variant
    // bits, one in eight): the forger's, with no resource, as the previous test shows pushed jobs are filed.
    await server.pool.query(`insert into job_history (id, name, resource_type, status, success_count, agent_id) values ($1, 'AgentPushIngestion', 'agent', 'SUCCESS', 0, $2)`, [
      guessedId,
      forger.id,
    ]);
    await push(other, [{ kind: 'check_status', payload: { canary: 'edge', type: 'http', name: 'edge-check', time: new Date().toISOString(), status: true } }]);

    const claimed = await server.pool.query('select agent_id, resource_id, success_count from job_history where id = $1', [guessedId]);
    expect(claimed.rows).toEqual([{ agent_id: forger.id, resource_id: null, success_count: 0 }]);
    const record = await server.pool.query<{ agent_id: string | null; success_count: number }>(
      `select agent_id, success_count from job_history where name = 'AgentPushIngestion' and resource_id = $1`,
      [other.id],
    );
    expect(record.rows).toEqual([{ agent_id: null, success_count: 1 }]);
  });
});
