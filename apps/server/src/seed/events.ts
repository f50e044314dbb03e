import type pg from 'pg';
import { seededFailure } from './seeded-failure';

type Queryable = Pick<pg.PoolClient, 'query'>;

/** The consumer of the demo's failing deliveries: a webhook no process of the demo runs, so its rows stay as seeded. */
export const DEMO_FAILING_CONSUMER = 'demo-webhook';

interface DemoFailure {
  name: string;
  error: string;
  attempts: number;
  /** How long before now the last attempt was. */
  minutesAgo: number;
}

const REFUSED = seededFailure('POST https://hooks.example.com/opsdeck: connect ECONNREFUSED 192.0.2.10:443');

const FAILURES: readonly DemoFailure[] = [
  { name: 'check.failed', error: REFUSED, attempts: 5, minutesAgo: 240 },
  { name: 'check.failed', error: REFUSED, attempts: 5, minutesAgo: 95 },
  { name: 'check.failed', error: seededFailure('POST https://hooks.example.com/opsdeck: 503 Service Unavailable'), attempts: 4, minutesAgo: 30 },
  { name: 'config.unhealthy', error: REFUSED, attempts: 5, minutesAgo: 12 },
];

/**
 * Deliveries that failed until the queue gave up, so the Event Queue screen shows error counts, a most common error to
 * open and rows to retry; one pending delivery sits beside them.
 */
export async function seedEventsDemo(client: Queryable): Promise<void> {
  for (const failure of FAILURES) {
    await client.query(
      `insert into event_queue (name, consumer, properties, error, attempts, last_attempt, created_at)
       values ($1, $2, $3, $4, $5, now() - make_interval(mins => $6), now() - make_interval(mins => $6 + 30))`,
      [failure.name, DEMO_FAILING_CONSUMER, JSON.stringify({ demo: true }), failure.error, failure.attempts, failure.minutesAgo],
    );
  }
  await client.query(`insert into event_queue (name, consumer, properties) values ('check.passed', $1, $2)`, [
    DEMO_FAILING_CONSUMER,
    JSON.stringify({ demo: true }),
  ]);
}
