import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, EventQueueConsumer, type QueuedEvent } from '../src/platform/event-queue';
import { startTestServer, type TestServer } from './harness';

describe('event queue: domain events, several consumers, retry', () => {
  let server: TestServer;

  // Domain events are written only for names some consumer subscribed to; this listener never drains, so the rows
  // it is given stay to be looked at.
  const LISTENER = 'events-test-listener';
  const DOMAIN_EVENTS = ['config.created', 'config.updated', 'config.deleted', 'config.healthy', 'config.unhealthy', 'component.warning',
    'incident.created', 'incident.status_updated', 'hypothesis.created', 'playbook.spec.approval.updated'];

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(`insert into event_queue_subscriptions (consumer, name) select $1, unnest($2::text[])`, [LISTENER, DOMAIN_EVENTS]);
  });
  afterAll(async () => {
    await server.close();
  });

  const consumer = (
    name: string | undefined,
    handlers: Record<string, (event: QueuedEvent) => Promise<void>>,
    extra: Partial<ConstructorParameters<typeof EventQueueConsumer>[0]> = {},
  ) => new EventQueueConsumer({ pool: server.pool, bus: server.running.context.bus, consumer: name, handlers, leaseMs: 0, backoffMs: 0, ...extra });

  async function eventsAbout(id: string): Promise<string[]> {
    const result = await server.pool.query<{ name: string }>(
      `select name from event_queue where properties ->> 'id' = $1 and consumer = $2 order by created_at, name`,
      [id, LISTENER],
    );
    return result.rows.map((row) => row.name).sort();
  }

  async function newConfig(name: string, health: string | null): Promise<string> {
    const result = await server.pool.query<{ id: string }>(
      `insert into config_items (type, name, health) values ('Kubernetes::Pod', $1, $2) returning id`,
      [name, health],
    );
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error('no config id');
    return id;
  }

  it('leaves no event behind when the change that wrote it is rolled back', async () => {
    const client = await server.pool.connect();
    let id = '';
    try {
      await client.query('begin');
      const inserted = await client.query<{ id: string }>(`insert into config_items (type, name, health) values ('Kubernetes::Pod', 'rolled-back', 'healthy') returning id`);
      id = inserted.rows[0]?.id ?? '';
      expect((await client.query(`select 1 from event_queue where properties ->> 'id' = $1`, [id])).rowCount).toBe(1);
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await eventsAbout(id)).toEqual([]);
  });

  it('writes config.created on insert, config.updated and the new health on change, none on a no-op', async () => {
    const id = await newConfig('events-pod', 'healthy');
    expect(await eventsAbout(id)).toEqual(['config.created']);
    await server.pool.query('delete from event_queue where properties ->> $2 = $1', [id, 'id']);

    await server.pool.query(`update config_items set last_scraped_time = now(), name = name where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual([]);

    await server.pool.query(`update config_items set health = 'unhealthy' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['config.unhealthy', 'config.updated']);
    const health = await server.pool.query<{ properties: Record<string, unknown> }>(
      `select properties from event_queue where name = 'config.unhealthy' and properties ->> 'id' = $1`,
      [id],
    );
    expect(health.rows[0]?.properties).toMatchObject({ config_id: id, health: 'unhealthy', previous_health: 'healthy' });
    await server.pool.query('delete from event_queue where properties ->> $2 = $1', [id, 'id']);

    await server.pool.query(`update config_items set config = '{"replicas": 2}' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['config.updated']);
    await server.pool.query('delete from event_queue where properties ->> $2 = $1', [id, 'id']);

    await server.pool.query(`update config_items set deleted_at = now() where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['config.deleted']);
  });

  it('writes config.deleted when a live item is deleted outright, and one event per row of a many-row statement', async () => {
    const a = await newConfig('events-a', null);
    const b = await newConfig('events-b', null);
    expect(await eventsAbout(a)).toEqual(['config.created']);
    await server.pool.query('delete from config_items where id = any ($1::uuid[])', [[a, b]]);
    expect(await eventsAbout(a)).toEqual(['config.created', 'config.deleted']);
    expect(await eventsAbout(b)).toEqual(['config.created', 'config.deleted']);
  });

  it('writes no domain event that no consumer subscribed to', async () => {
    await server.pool.query(`delete from event_queue_subscriptions where consumer = $1 and name = 'config.created'`, [LISTENER]);
    try {
      const id = await newConfig('unwatched-pod', null);
      const rows = await server.pool.query(`select 1 from event_queue where properties ->> 'id' = $1`, [id]);
      expect(rows.rowCount).toBe(0);
    } finally {
      await server.pool.query(`insert into event_queue_subscriptions (consumer, name) values ($1, 'config.created')`, [LISTENER]);
    }
  });

  it('writes component.<status> when a component status changes and nothing when it stays', async () => {
    const inserted = await server.pool.query<{ id: string }>(`insert into components (name, status) values ('events-component', 'healthy') returning id`);
    const id = inserted.rows[0]?.id ?? '';
    await server.pool.query(`update components set status = 'healthy', description = 'same status' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual([]);
    await server.pool.query(`update components set status = 'warning' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['component.warning']);
    const row = await server.pool.query<{ properties: Record<string, unknown> }>(`select properties from event_queue where properties ->> 'id' = $1`, [id]);
    expect(row.rows[0]?.properties).toMatchObject({ component_id: id, status: 'warning', previous_status: 'healthy' });
  });

  it('writes incident changes from the changelog in the same transaction: created, status updated, hypothesis', async () => {
    const incident = await server.pool.query<{ id: string }>(`insert into incidents (title) values ('queued incident') returning id`);
    const id = incident.rows[0]?.id ?? '';
    await server.pool.query(`update incidents set status = 'closed' where id = $1`, [id]);
    await server.pool.query(`insert into hypotheses (incident_id, title) values ($1, 'root cause')`, [id]);
    await server.pool.query(`update incidents set title = 'renamed, same status' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['hypothesis.created', 'incident.created', 'incident.status_updated']);
  });

  it('writes playbook.spec.approval.updated only when who may approve a playbook changes', async () => {
    const inserted = await server.pool.query<{ id: string }>(
      `insert into playbooks (name, spec) values ('approval-events', '{"actions": []}') returning id`,
    );
    const id = inserted.rows[0]?.id ?? '';
    await server.pool.query(`update playbooks set description = 'no approval change' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual([]);
    await server.pool.query(`update playbooks set spec = spec || '{"approval": {"approvers": {"people": ["admin@opsdeck.local"]}}}' where id = $1`, [id]);
    expect(await eventsAbout(id)).toEqual(['playbook.spec.approval.updated']);
  });

  it('hands each event once to every consumer subscribed to its name, each with its own attempts and error', async () => {
    const seenA: string[] = [];
    let failB = true;
    const seenB: string[] = [];
    const a = consumer('fan-a', { 'test.fan': async (event) => void seenA.push(String(event.properties.n)) });
    const b = consumer('fan-b', {
      'test.fan': async (event) => {
        if (failB) throw new Error('b is down');
        seenB.push(String(event.properties.n));
      },
    }, { backoffMs: 60_000 });
    await Promise.all([a.subscribe(), b.subscribe()]);
    await enqueue(server.pool, 'test.fan', { n: 1 });
    await enqueue(server.pool, 'test.fan', { n: 2 });

    expect(await a.drain()).toBe(2);
    expect(await a.drain()).toBe(0);
    expect(await b.drain()).toBe(2);
    const summary = await server.pool.query(`select consumer, pending, failed, most_common_error from event_queue_summary where name = 'test.fan' order by consumer`);
    expect(summary.rows).toEqual([{ consumer: 'fan-b', pending: 0, failed: 2, most_common_error: 'b is down' }]);

    failB = false;
    await server.pool.query(`update event_queue set last_attempt = now() - interval '1 hour' where consumer = 'fan-b'`);
    expect(await b.drain()).toBe(2);
    expect(seenA.sort()).toEqual(['1', '2']);
    expect(seenB.sort()).toEqual(['1', '2']);
    const jobs = await server.pool.query<{ name: string; status: string; success_count: number; error_count: number; resource_type: string }>(
      `select name, status, success_count, error_count, resource_type from job_history where name like 'EventQueueConsumer:fan-%' order by created_at`,
    );
    expect(jobs.rows).toEqual([
      { name: 'EventQueueConsumer:fan-a', status: 'SUCCESS', success_count: 2, error_count: 0, resource_type: 'event_queue' },
      { name: 'EventQueueConsumer:fan-b', status: 'FAILED', success_count: 0, error_count: 2, resource_type: 'event_queue' },
      { name: 'EventQueueConsumer:fan-b', status: 'SUCCESS', success_count: 2, error_count: 0, resource_type: 'event_queue' },
    ]);
  });

  it('never gives one consumer name’s event to two of its instances draining at once', async () => {
    const handler = (seen: string[]) => async (event: QueuedEvent) => {
      seen.push(event.id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    };
    const seen: string[] = [];
    const first = consumer('shared-worker', { 'test.race': handler(seen) }, { leaseMs: 60_000 });
    const second = consumer('shared-worker', { 'test.race': handler(seen) }, { leaseMs: 60_000 });
    await Promise.all([first.subscribe(), second.subscribe()]);
    for (let i = 0; i < 20; i += 1) await enqueue(server.pool, 'test.race', { i });
    await Promise.all([first.drain(), second.drain()]);
    expect(seen).toHaveLength(20);
    expect(new Set(seen).size).toBe(20);
  });

  it('gives up after maxAttempts, and the retry route runs the failed rows again for writers only', async () => {
    let fail = true;
    const flaky = consumer('retry-me', {
      'test.retry': async () => {
        if (fail) throw new Error('target unreachable');
      },
    }, { maxAttempts: 2 });
    await flaky.subscribe();
    await enqueue(server.pool, 'test.retry', {});
    await flaky.drain();
    await flaky.drain();
    expect(await flaky.drain()).toBe(0);
    const stuck = await server.pool.query(`select attempts, error from event_queue where name = 'test.retry'`);
    expect(stuck.rows).toEqual([{ attempts: 2, error: 'target unreachable' }]);

    const viewer = await server.cookieFor('viewer');
    expect((await server.call('POST', '/api/event-queue/retry', viewer, { name: 'test.retry' })).status).toBe(403);
    expect((await server.call('POST', '/api/event-queue/retry', viewer, { name: '' })).status).toBeLessThan(500);
    const editor = await server.cookieFor('editor');
    const bad = await server.call('POST', '/api/event-queue/retry', editor, {});
    expect(bad.status).toBe(400);
    const retried = await server.call('POST', '/api/event-queue/retry', editor, { name: 'test.retry' });
    expect(retried).toMatchObject({ status: 200, json: { retried: 1 } });
    const reset = await server.pool.query(`select attempts, error, last_attempt from event_queue where name = 'test.retry'`);
    expect(reset.rows).toEqual([{ attempts: 0, error: null, last_attempt: null }]);

    fail = false;
    expect(await flaky.drain()).toBe(1);
    expect((await server.pool.query(`select 1 from event_queue where name = 'test.retry'`)).rowCount).toBe(0);
  });

  it('waits out an exponential backoff between attempts, doubling per failure', async () => {
    const backoff = consumer('backoff', { 'test.backoff': async () => Promise.reject(new Error('again')) }, { backoffMs: 60_000, maxBackoffMs: 600_000 });
    await backoff.subscribe();
    await enqueue(server.pool, 'test.backoff', {});
    const attemptedAgo = (seconds: number) =>
      server.pool.query(`update event_queue set last_attempt = now() - make_interval(secs => $1) where name = 'test.backoff'`, [seconds]);
    expect(await backoff.drain()).toBe(1);
    await attemptedAgo(50);
    expect(await backoff.drain()).toBe(0);
    await attemptedAgo(70);
    expect(await backoff.drain()).toBe(1);
    // Two failures: the next attempt waits 2 × 60 s.
    await attemptedAgo(70);
    expect(await backoff.drain()).toBe(0);
    await attemptedAgo(130);
    expect(await backoff.drain()).toBe(1);
    const row = await server.pool.query(`select attempts, error from event_queue where name = 'test.backoff'`);
    expect(row.rows).toEqual([{ attempts: 3, error: 'again' }]);
  });
});
