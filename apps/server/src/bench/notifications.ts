import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { EventBus } from '../platform/event-bus';
import { enqueue, EVENT_QUEUE_WAKE } from '../platform/event-queue';
import { deliverNotification } from '../modules/notification-providers';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationHandlers } from '../modules/notifications';

const THROUGHPUT_EVENTS = 500;
/** Each event reaches this many notifications, so one event is this many messages. */
const NOTIFICATIONS = 2;
/** Consumers draining at once, as the plugin runs them. */
const DELIVERY_LOOPS = 2;
const LATENCY_EVENTS = 100;
const LATENCY_SPACING_MS = 20;
const THROUGHPUT_GOAL_PER_SECOND = 200;
const LATENCY_GOAL_P95_MS = 2000;

export interface NotificationBenchFigures {
  throughput: { messages: number; seconds: number; perSecond: number };
  latency: { events: number; p50Ms: number; p95Ms: number; maxMs: number };
}

/** A webhook on loopback that answers 200 and calls back with each message's event id (from its idempotency key). */
async function localWebhook(onMessage: (eventId: string) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const key = request.headers['idempotency-key'];
    request.resume();
    request.on('end', () => {
      if (typeof key === 'string') onMessage(key.split(':')[1] ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

async function checks(pool: pg.Pool, count: number, tag: string): Promise<string[]> {
  const canary = await pool.query<{ id: string }>(`insert into canaries (name) values ($1) returning id`, [tag]);
  const rows = await pool.query<{ id: string }>(
    `insert into checks (canary_id, type, name, status) select $1, 'http', $2 || g, 'unhealthy' from generate_series(1, $3) g returning id`,
    [canary.rows[0]?.id, tag, count],
  );
  return rows.rows.map((row) => row.id);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Delivery throughput to a local generic webhook through the real provider, and the time from a check.failed event
 * being queued to its message arriving, on a fresh embedded database.
 */
export async function benchNotifications(): Promise<NotificationBenchFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-notifications-'));
  const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
  const arrivals = new Map<string, number>();
  let received = 0;
  const hook = await localWebhook((eventId) => {
    received += 1;
    if (!arrivals.has(eventId)) arrivals.set(eventId, performance.now());
  });
  try {
    await migrate(db.pool);
    await db.pool.query(`insert into connections (name, namespace, type, url, properties) values ('bench-hook', 'default', 'generic_webhook', $1, '{}')`, [hook.url]);
    for (let n = 0; n < NOTIFICATIONS; n += 1) {
      await db.pool.query(`insert into notifications (name, events, custom_services) values ($1, '{check.failed}', $2)`, [
        `bench ${n}`,
        JSON.stringify([{ connection: 'connection://default/bench-hook' }]),
      ]);
    }
    const bus = new EventBus();
    const consumer = (): NotificationDeliveryConsumer =>
      new NotificationDeliveryConsumer({
        pool: db.pool,
        bus,
        consumer: NOTIFICATION_CONSUMER,
        handlers: notificationHandlers({ pool: db.pool, secretKey: Buffer.alloc(32), deliver: deliverNotification, fallbackUrl: 'http://localhost:8080' }),
        claimBatch: 5,
        leaseMs: 5 * 60_000,
        pollIntervalMs: 1000,
      });

    for (const id of await checks(db.pool, THROUGHPUT_EVENTS, 'throughput-')) await enqueue(db.pool, 'check.failed', { id, check_id: id });
    const started = performance.now();
    await Promise.all(Array.from({ length: DELIVERY_LOOPS }, () => consumer().drain()));
    const seconds = (performance.now() - started) / 1000;
    const messages = received;

    const running = consumer();
    running.start();
    const queued = new Map<string, number>();
    try {
      for (const id of await checks(db.pool, LATENCY_EVENTS, 'latency-')) {
        await enqueue(db.pool, 'check.failed', { id, check_id: id });
        const at = performance.now();
        // The fan-out replaced the written row by the consumer's copy, whose id the message carries: find it by its check.
        const copy = await db.pool.query<{ id: string }>(`select id from event_queue where consumer = $1 and properties ->> 'check_id' = $2`, [NOTIFICATION_CONSUMER, id]);
        queued.set(copy.rows[0]?.id ?? id, at);
        bus.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
        await new Promise((resolve) => setTimeout(resolve, LATENCY_SPACING_MS));
      }
      const deadline = performance.now() + 30_000;
      while ([...queued.keys()].some((id) => !arrivals.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await running.stop();
    }
    const latencies = [...queued]
      .map(([id, at]) => (arrivals.get(id) ?? Number.POSITIVE_INFINITY) - at)
      .sort((a, b) => a - b);
    return {
      throughput: { messages, seconds, perSecond: messages / seconds },
      latency: { events: latencies.length, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), maxMs: latencies.at(-1) ?? Number.NaN },
    };
  } finally {
    await new Promise((resolve) => hook.server.close(resolve));
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The section `npm run bench -- --only notifications` prints. */
export async function reportNotifications(heading: (title: string) => void): Promise<void> {
  heading('Notifications');
  const { throughput, latency } = await benchNotifications();
  console.log('Fresh embedded database; the generic webhook provider posting to a local webhook:');
  console.log(
    `${'delivery throughput'.padEnd(40)} ${throughput.perSecond.toFixed(0)} messages/s: ${throughput.messages} in ${throughput.seconds.toFixed(2)} s (goal ≥ ${THROUGHPUT_GOAL_PER_SECOND}/s)`,
  );
  console.log(
    `${'check failed → message arrived'.padEnd(40)} p50 ${latency.p50Ms.toFixed(0)} ms, p95 ${latency.p95Ms.toFixed(0)} ms, max ${latency.maxMs.toFixed(0)} ms over ${latency.events} events (goal p95 < ${LATENCY_GOAL_P95_MS} ms)`,
  );
}
