import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PLAYBOOK_NAME, DEMO_SQL_CONNECTION } from '../src/seed/playbooks';
import { startTestServer, waitForRunEnd, type TestServer } from './harness';

interface Need {
  action: string;
  met: boolean;
  message: string;
}

/** A loopback port nothing listens on: bound, read, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** #34 item 1: every demo playbook runs to success on a fresh machine, or says before it is run what it needs. */
describe('the demo playbooks on a machine without a cluster or the payments database', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  async function playbookId(name: string): Promise<string> {
    const row = await server.pool.query<{ id: string }>('select id from playbooks where name = $1 and deleted_at is null', [name]);
    return row.rows[0]?.id ?? '';
  }

  async function preflight(name: string, cookie = admin): Promise<{ status: number; needs: Need[] }> {
    const reply = await server.call('GET', `/api/playbook/${await playbookId(name)}/preflight`, cookie);
    return { status: reply.status, needs: (reply.json.needs ?? []) as Need[] };
  }

  it('runs the flagship pod diagnosis to success, showing the pod as the catalog last saw it', async () => {
    const pod = await server.pool.query<{ id: string }>(`select id from config_items where type = 'Kubernetes::Pod' and deleted_at is null order by name limit 1`);
    const reply = await server.call('POST', '/api/playbook/run', admin, { id: await playbookId(DEMO_PLAYBOOK_NAME), config_id: pod.rows[0]?.id });
    expect(reply.status, reply.text).toBe(201);
    const runId = String(reply.json.run_id);
    const status = await waitForRunEnd(server, runId);
    const actions = await server.pool.query<{ name: string; status: string; result: { stdout?: string } | null }>(
      'select name, status, result from playbook_run_actions where playbook_run_id = $1 order by start_time',
      [runId],
    );
    expect(status, JSON.stringify(actions.rows)).toBe('completed');
    const describe = actions.rows.find((action) => action.name === 'describe');
    expect(describe?.status).toBe('completed');
    expect(describe?.result?.stdout).toMatch(/as the catalog last saw it: status \S+, health \S+\./);
    expect(actions.rows.find((action) => action.name === 'notify-on-failure')?.status ?? 'skipped').toBe('skipped');
  });

  it('asks nothing of the host for the pod diagnosis, which tests for kubectl itself', async () => {
    expect(await preflight(DEMO_PLAYBOOK_NAME)).toEqual({ status: 200, needs: [] });
  });

  it('says before a restart is run that kubectl is missing or has no cluster', async () => {
    const { status, needs } = await preflight('restart-deployment');
    expect(status).toBe(200);
    expect(needs.filter((need) => !need.met).map((need) => need.action)).toEqual(['restart', 'wait-for-rollout']);
    for (const need of needs) expect(need.message).toMatch(/^kubectl (is not installed on this host|has no cluster to talk to)/);
  });

  it("says before the sessions query is run that the payments database does not answer", async () => {
    const port = await closedPort();
    await server.pool.query(`update connections set url = $1 where name = $2`, [`postgres://127.0.0.1:${port}/payments?sslmode=disable`, DEMO_SQL_CONNECTION]);
    expect(await preflight('database-sessions')).toEqual({
      status: 200,
      needs: [{ action: 'sessions', met: false, message: `The database of default/${DEMO_SQL_CONNECTION} does not answer at 127.0.0.1:${port}` }],
    });
  });

  it('answers only a role that may run playbooks', async () => {
    expect((await preflight('database-sessions', await server.cookieFor('viewer'))).status).toBe(403);
  });
});
