import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { EventBus } from '../platform/event-bus';
import { EventQueueConsumer } from '../platform/event-queue';

const EVENTS = 2_000;
const CATALOG_ITEMS = 10_000;
const EVENT_TRIGGERS = ['config_items_created_events', 'config_items_updated_events'] as const;

export interface EventQueueBenchFigures {
  oneConsumer: { events: number; seconds: number; perSecond: number };
  twoConsumers: { events: number; seconds: number; perSecond: number };
  /** Inserting then updating 10,000 config items in one statement each, with the domain-event triggers and without. */
  catalog: { withEvents: { insertMs: number; updateMs: number }; withoutEvents: { insertMs: number; updateMs: number } };
}

async function fill(pool: pg.Pool, name: string, count: number): Promise<void> {
  await pool.query(`insert into event_queue (name, properties) select $1, jsonb_build_object('n', g) from generate_series(1, $2) g`, [name, count]);
}

async function drainWith(pool: pg.Pool, name: string, consumers: number): Promise<{ events: number; seconds: number; perSecond: number }> {
  await fill(pool, name, EVENTS);
  const bus = new EventBus();
  const started = performance.now();
  const handled = await Promise.all(
    Array.from({ length: consumers }, () =>
      new EventQueueConsumer({ pool, bus, handlers: { [name]: async () => undefined }, leaseMs: 60_000 }).drain(),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const events = handled.reduce((sum, n) => sum + n, 0);
  return { events, seconds, perSecond: events / seconds };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function catalogWrites(pool: pg.Pool, tag: string): Promise<{ insertMs: number; updateMs: number }> {
  const insertMs = await timed(() =>
    pool.query(
      `insert into config_items (type, name, health, config)
       select 'Bench::Item', $1 || g, 'healthy', jsonb_build_object('n', g) from generate_series(1, $2) g`,
      [tag, CATALOG_ITEMS],
    ),
  );
  // Half the items change health, the other half are re-scraped unchanged.
  const updateMs = await timed(() =>
    pool.query(
      `update config_items set last_scraped_time = now(),
              health = case when (config ->> 'n')::int % 2 = 0 then 'unhealthy' else health end
        where name like $1 || '%'`,
      [tag],
    ),
  );
  return { insertMs, updateMs };
}

/** Event throughput with one and two consumers, and the cost of the catalog event triggers, on a fresh embedded database. */
export async function benchEventQueue(): Promise<EventQueueBenchFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-events-'));
  const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
  try {
    await migrate(db.pool);
    const oneConsumer = await drainWith(db.pool, 'bench.one', 1);
    const twoConsumers = await drainWith(db.pool, 'bench.two', 2);
    const withEvents = await catalogWrites(db.pool, 'with-');
    for (const trigger of EVENT_TRIGGERS) await db.pool.query(`alter table config_items disable trigger ${trigger}`);
    const withoutEvents = await catalogWrites(db.pool, 'without-');
    for (const trigger of EVENT_TRIGGERS) await db.pool.query(`alter table config_items enable trigger ${trigger}`);
    return { oneConsumer, twoConsumers, catalog: { withEvents, withoutEvents } };
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The section `npm run bench -- --only event-queue` prints. */
export async function reportEventQueue(heading: (title: string) => void): Promise<void> {
  heading('Event queue');
  const figures = await benchEventQueue();
  const line = (label: string, run: EventQueueBenchFigures['oneConsumer']) =>
    console.log(`${label.padEnd(40)} ${run.perSecond.toFixed(0)} events/s: ${run.events} events in ${run.seconds.toFixed(2)} s`);
  console.log('Fresh embedded database; a handler that does nothing, so the figure is the queue itself:');
  line('one consumer', figures.oneConsumer);
  line('two consumers draining at once', figures.twoConsumers);
  const { withEvents, withoutEvents } = figures.catalog;
  console.log(
    `${`${CATALOG_ITEMS} config items inserted`.padEnd(40)} ${withEvents.insertMs.toFixed(0)} ms with domain events, ${withoutEvents.insertMs.toFixed(0)} ms without`,
  );
  console.log(
    `${`${CATALOG_ITEMS} config items re-scraped`.padEnd(40)} ${withEvents.updateMs.toFixed(0)} ms with domain events, ${withoutEvents.updateMs.toFixed(0)} ms without (half change health)`,
  );
}
