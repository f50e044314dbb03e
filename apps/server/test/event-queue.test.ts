import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, EVENT_QUEUE_WAKE, EventQueueConsumer, type QueuedEvent } from '../src/platform/event-queue';
import { startTestServer, type TestServer } from './harness';

describe('event queue consumer', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const consumer = (handlers: Record<string, (event: QueuedEvent) => Promise<void>>, extra: Partial<ConstructorParameters<typeof EventQueueConsumer>[0]> = {}) =>
    new EventQueueConsumer({ pool: server.pool, bus: server.running.context.bus, handlers, leaseMs: 0, backoffMs: 0, ...extra });

  async function row(id: string): Promise<{ attempts: number; error: string | null; last_attempt: string | null } | undefined> {
    const result = await server.pool.query<{ attempts: number; error: string | null; last_attempt: string | null }>(
      'select attempts, error, last_attempt from event_queue where id = $1',
      [id],
    );
    return result.rows[0];
  }

  it('hands a committed event to its handler and deletes it', async () => {
    const client = await server.pool.connect();
    await client.query('begin');
    const id = await enqueue(client, 'test.ok', { n: 1 });
    await client.query('commit');
    client.release();
    const seen: QueuedEvent[] = [];
    const handled = await consumer({ 'test.ok': async (event) => void seen.push(event) }).drain();
    expect(handled).toBe(1);
    expect(seen).toMatchObject([{ id, name: 'test.ok', properties: { n: 1 }, attempts: 1 }]);
    expect(await row(id)).toBeUndefined();
  });

  it('claims several events in one pass, handles them in order, and gives back the ones it had not started when stopped', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push(await enqueue(server.pool, 'test.batch', { n }));
    // The embedded database's clock can give two quick inserts the same created_at, which the queue then orders by id:
    // a second apart, the order under test is the order they were queued in.
    await server.pool.query(`update event_queue set created_at = now() - make_interval(secs => 10 - (properties ->> 'n')::int) where id = any ($1::uuid[])`, [ids]);
    const seen: number[] = [];
    let stopping: Promise<void> | null = null;
    const batch = consumer(
      {
        'test.batch': async (event) => {
          seen.push(Number(event.properties.n));
          if (seen.length === 2) stopping = batch.stop();
        },
      },
      { claimBatch: 5, leaseMs: 60_000 },
    );
    expect(await batch.drain()).toBe(2);
    await stopping;
    expect(seen).toEqual([0, 1]);
    expect(await row(ids[0] ?? '')).toBeUndefined();
    expect(await row(ids[1] ?? '')).toBeUndefined();
    for (const id of ids.slice(2)) expect(await row(id)).toMatchObject({ attempts: 0, last_attempt: null });
    expect(await consumer({ 'test.batch': async (event) => void seen.push(Number(event.properties.n)) }).drain()).toBe(3);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('records the error and attempts of a failure and retries after the backoff', async () => {
    const id = await enqueue(server.pool, 'test.flaky', {});
    let calls = 0;
    const handler = async (): Promise<void> => {
      calls += 1;
      if (calls === 1) throw new Error('smtp said no');
    };
    const slow = consumer({ 'test.flaky': handler }, { backoffMs: 60_000 });
    await slow.drain();
    expect(await row(id)).toMatchObject({ attempts: 1, error: 'smtp said no', last_attempt: expect.any(String) });
    expect(await slow.drain()).toBe(0);
    await consumer({ 'test.flaky': handler }).drain();
    expect(calls).toBe(2);
    expect(await row(id)).toBeUndefined();
  });

  it('keeps an event that failed maxAttempts times for people to inspect', async () => {
    const id = await enqueue(server.pool, 'test.broken', {});
    const broken = consumer({ 'test.broken': async () => Promise.reject(new Error('always')) }, { maxAttempts: 2 });
    await broken.drain();
    await broken.drain();
    expect(await broken.drain()).toBe(0);
    expect(await row(id)).toMatchObject({ attempts: 2, error: 'always' });
  });

  it('takes higher priority first, then older events', async () => {
    const low = await enqueue(server.pool, 'test.order', { p: 'low' }, 0);
    const high = await enqueue(server.pool, 'test.order', { p: 'high' }, 5);
    const order: string[] = [];
    await consumer({ 'test.order': async (event) => void order.push(event.id) }).drain();
    expect(order).toEqual([high, low]);
  });

  it('never hands one event to two consumers draining at once', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i += 1) ids.add(await enqueue(server.pool, 'test.shared', { i }));
    const seen: string[] = [];
    const handler = async (event: QueuedEvent): Promise<void> => {
      seen.push(event.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await Promise.all([consumer({ 'test.shared': handler }, { leaseMs: 60_000 }).drain(), consumer({ 'test.shared': handler }, { leaseMs: 60_000 }).drain()]);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('wakes on the bus instead of waiting for the next poll, and stops cleanly', async () => {
    const seen: string[] = [];
    const started = consumer({ 'test.wake': async (event) => void seen.push(event.id) }, { pollIntervalMs: 60_000 });
    started.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const id = await enqueue(server.pool, 'test.wake', {});
    server.running.context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
    const deadline = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await started.stop();
    expect(seen).toEqual([id]);
  });
});
