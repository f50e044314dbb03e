import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, EVENT_QUEUE_WAKE } from '../src/platform/event-queue';
import { PLAYBOOK_TRIGGERS_CONSUMER } from '../src/modules/playbooks/playbook-triggers';
import { startTestServer, type TestServer } from './harness';

interface RunRow {
  playbook_id: string;
  check_id: string | null;
  component_id: string | null;
  created_by: string | null;
  status: string;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Mission Control's `on` (issue #32): check and component events, through the event queue and the workers' trigger
 * consumer, start the playbooks whose event, labels, filter and selectors they match, once per resource at a time.
 */
describe('playbooks started by events', () => {
  let server: TestServer;
  let admin: string;

  // The action waits an hour before it would run, so a started run stays under way for the whole file.
  const parkedAction = { name: 'page the owner', delay: '1h', http: { url: 'http://127.0.0.1:9/page', method: 'POST' } };

  async function playbook(name: string, spec: Record<string, unknown>): Promise<string> {
    const reply = await server.call('POST', '/api/db/playbooks', admin, { name, spec: { actions: [parkedAction], ...spec } }, { prefer: 'return=representation' });
    expect(reply.status, reply.text).toBe(201);
    return (JSON.parse(reply.text) as Array<{ id: string }>)[0]?.id ?? '';
  }

  /**
   * A canary with one check, saved through the API and run by the workers' scheduler: its first result is a
   * transition, so the scheduler writes the check.failed or check.passed event the trigger consumer handles. Returns
   * once that event has been handled.
   */
  async function check(name: string, labels: Record<string, string>, outcome: 'fails' | 'passes', type: 'tcp' | 'http' = 'tcp'): Promise<string> {
    const target = outcome === 'passes' ? new URL(server.url).host : '127.0.0.1:9';
    const address = type === 'tcp' ? `endpoint: ${target}` : `url: http://${target}/`;
    const labelLines = Object.entries(labels).map(([key, value]) => `      ${key}: ${value}`);
    const yaml = ['schedule: "@every 1h"', `${type}:`, `  - name: ${name}`, `    ${address}`, ...(labelLines.length > 0 ? ['    labels:', ...labelLines] : [])].join('\n');
    const reply = await server.call('POST', '/api/canary/canaries', admin, { name: `canary-${name}`, yaml });
    expect(reply.status, reply.text).toBe(201);
    const id = (JSON.parse(reply.text) as { checks: Array<{ id: string }> }).checks[0]?.id ?? '';
    const status = outcome === 'passes' ? 'healthy' : 'unhealthy';
    await waitFor(`${name} to be ${status}`, async () => {
      const row = await server.pool.query('select 1 from checks where id = $1 and status = $2', [id, status]);
      return (row.rowCount ?? 0) > 0 ? true : null;
    });
    await waitFor(`the event of ${name} to be handled`, async () => {
      const left = await server.pool.query<{ error: string | null }>(`select error from event_queue where consumer = $1 and properties ->> 'check_id' = $2`, [PLAYBOOK_TRIGGERS_CONSUMER, id]);
      const error = left.rows[0]?.error;
      if (error !== null && error !== undefined) throw new Error(`the trigger consumer failed on ${name}: ${error}`);
      return left.rowCount === 0 ? true : null;
    });
    return id;
  }

  async function runsOf(playbookId: string): Promise<RunRow[]> {
    const rows = await server.pool.query<RunRow>('select playbook_id, check_id, component_id, created_by, status from playbook_runs where playbook_id = $1 order by created_at', [playbookId]);
    return rows.rows;
  }

  /** Enqueues the event and waits until the trigger consumer has handled it: its copy of the event left the queue. */
  async function deliver(name: string, resourceId: string): Promise<void> {
    const marker = `${name}-${Math.random().toString(36).slice(2)}`;
    await enqueue(server.pool, name, { id: resourceId, [name.startsWith('check.') ? 'check_id' : 'component_id']: resourceId, marker });
    server.running.context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
    await waitFor(`${name} to be handled`, async () => {
      const left = await server.pool.query<{ error: string | null }>(`select error from event_queue where consumer = $1 and properties ->> 'marker' = $2`, [PLAYBOOK_TRIGGERS_CONSUMER, marker]);
      const error = left.rows[0]?.error;
      if (error !== null && error !== undefined) throw new Error(`the trigger consumer failed on ${name}: ${error}`);
      return left.rowCount === 0 ? true : null;
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ workers: true });
    admin = await server.cookieFor('admin');
    // The consumer subscribes when the workers start: wait for it, or events written before are not its to handle.
    await waitFor('the trigger consumer to subscribe', async () => {
      const rows = await server.pool.query(`select 1 from event_queue_subscriptions where consumer = $1 and name = 'check.failed'`, [PLAYBOOK_TRIGGERS_CONSUMER]);
      return (rows.rowCount ?? 0) > 0 ? true : null;
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('starts a run on the failed check an on.canary trigger matches by event, labels and filter, with no person as its creator, and one at a time', async () => {
    const id = await playbook('restart crashlooping', { on: { canary: [{ event: 'failed', labels: { team: 'payments' }, filter: "check.type == 'tcp'" }] } });
    const failing = await check('payments-db-port', { team: 'payments' }, 'fails');
    expect(await runsOf(id)).toEqual([{ playbook_id: id, check_id: failing, component_id: null, created_by: null, status: expect.stringMatching(/^(pending|scheduled|running)$/) }]);

    // Reported again while that run is under way: no second run.
    await deliver('check.failed', failing);
    expect(await runsOf(id)).toHaveLength(1);

    // Another team's check and a check of another type start nothing; nor does a late failed event of a check that passes now.
    await check('search-port', { team: 'search' }, 'fails');
    await check('payments-site', { team: 'payments' }, 'fails', 'http');
    const passing = await check('payments-cache-port', { team: 'payments' }, 'passes');
    await deliver('check.failed', passing);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('starts on the event it lists, and keeps a triggered playbook to the checks its selectors name', async () => {
    const selective = await playbook('only the primary', { checks: [{ name: 'primary-port' }], on: { canary: [{ event: 'failed', labels: { suite: 'triggers' } }] } });
    // Labelled: the demo's own checks pass and fail beside this file, and must not start it.
    const onPass = await playbook('say recovered', { on: { canary: [{ event: 'passed', labels: { suite: 'triggers' } }] } });
    const recovering = await check('api-port', { suite: 'triggers' }, 'passes');
    expect((await runsOf(onPass)).map((run) => run.check_id)).toEqual([recovering]);
    await check('secondary-port', { suite: 'triggers' }, 'fails');
    expect(await runsOf(selective)).toEqual([]);
    const primary = await check('primary-port', { suite: 'triggers' }, 'fails');
    expect((await runsOf(selective)).map((run) => run.check_id)).toEqual([primary]);
  });

  it('starts a run on the unhealthy component an on.component trigger matches', async () => {
    const id = await playbook('notify database down', { on: { component: [{ event: 'unhealthy', filter: "component.type == 'database'", labels: { suite: 'triggers' } }] } });
    const inserted = await server.pool.query<{ id: string }>(
      `insert into components (name, type, status, labels) values ('orders-db', 'database', 'unhealthy', '{"suite":"triggers"}'), ('orders-api', 'service', 'unhealthy', '{"suite":"triggers"}') returning id`,
    );
    const [database, service] = inserted.rows.map((row) => row.id);
    for (const componentId of [database ?? '', service ?? '']) await deliver('component.unhealthy', componentId);
    expect((await runsOf(id)).map((run) => run.component_id)).toEqual([database]);
  });

  it('refuses on save what it would not run: an event kind of another tool, an unknown event, and a required parameter no event can fill', async () => {
    const refused = async (spec: Record<string, unknown>): Promise<{ code: string; details: string }> => {
      const reply = await server.call('POST', '/api/db/playbooks', admin, { name: `refused-${Math.random().toString(36).slice(2)}`, spec: { actions: [parkedAction], ...spec } });
      expect(reply.status, reply.text).toBe(400);
      return JSON.parse(reply.text) as { code: string; details: string };
    };
    expect((await refused({ on: { webhook: { path: 'hook' } } })).details).toContain('spec.on.webhook');
    expect((await refused({ on: { component: [{ event: 'error' }] } })).details).toContain('spec.on.component[0].event');
    expect((await refused({ on: { canary: [{ event: 'failed' }] }, parameters: [{ name: 'pod', label: 'Pod', required: true }] })).details).toContain('spec.on');
  });
});
