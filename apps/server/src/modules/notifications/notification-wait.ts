import { parseDurationMs } from '@opsdeck/shared';
import type pg from 'pg';
import type { QueuedEvent } from '../../platform/event-queue';
import { isNotificationEvent, isStateEvent, type EventFamily, type NotificationEvent } from './notification-events';

/**
 * Mission Control's waitFor (issue #32): a notification with properties.waitFor holds its health events that long and
 * sends each only if the resource still has that health, so a check that fails once and recovers on its next run
 * pages nobody. waitForEvalPeriod adds to the wait of config events: Mission Control re-scrapes a Kubernetes item
 * first and then waits it; here the release reads what the scrapers last stored, so it is simply more time for them.
 */

/** The recipient key of the row that holds an event while it waits. */
export const WAIT_RECIPIENT = 'waitFor';
/** How long a claimed waiting row stays out of other release passes: a worker that died mid-release leaves it due again. */
export const WAIT_CLAIM_LEASE_MS = 5 * 60_000;
/** A release whose sends failed is tried again after 30 s, 60 s; then the row is left as failed. */
export const WAIT_RELEASE_ATTEMPTS = 3;
const RETRY_MS = 30_000;

function durationOf(value: unknown): number {
  return typeof value === 'string' || typeof value === 'number' ? (parseDurationMs(value) ?? 0) : 0;
}

/** How long this event waits under this notification's properties; 0: it is sent at once. */
export function waitMsOf(properties: Record<string, unknown>, event: NotificationEvent): number {
  if (!isStateEvent(event)) return 0;
  const waitFor = durationOf(properties.waitFor);
  if (waitFor <= 0) return 0;
  return waitFor + (event.startsWith('config.') ? durationOf(properties.waitForEvalPeriod) : 0);
}

/** How the wait reads in a reason: as written (2m), with the evaluation period when it counts. */
export function waitLabel(properties: Record<string, unknown>, event: NotificationEvent): string {
  const evalPeriod = event.startsWith('config.') && properties.waitForEvalPeriod !== undefined ? ` + ${String(properties.waitForEvalPeriod)}` : '';
  return `${String(properties.waitFor)}${evalPeriod}`;
}

/** The health a state event says its resource has. */
export function healthOfEvent(event: NotificationEvent): string {
  if (event === 'check.failed') return 'unhealthy';
  if (event === 'check.passed') return 'healthy';
  return event.slice(event.indexOf('.') + 1);
}

const HEALTH_QUERIES: Readonly<Partial<Record<EventFamily, string>>> = {
  check: 'select status as health, deleted_at is not null as deleted from checks where id = $1::uuid',
  config: 'select health, deleted_at is not null as deleted from config_items where id = $1::uuid',
  component: 'select status as health, deleted_at is not null as deleted from components where id = $1::uuid',
};

/** The resource's health now; null when it no longer exists (or was deleted). */
export async function currentHealth(pool: pg.Pool, family: EventFamily, id: string): Promise<{ health: string | null } | null> {
  const sql = HEALTH_QUERIES[family];
  if (sql === undefined) return null;
  const result = await pool.query<{ health: string | null; deleted: boolean }>(sql, [id]);
  const row = result.rows[0];
  return row === undefined || row.deleted ? null : { health: row.health };
}

/** Writes the row that holds an event; a second hold of the same event (a retried queue event) writes nothing. */
export async function holdEvent(
  pool: pg.Pool,
  entry: {
    notificationId: string;
    event: QueuedEvent & { name: NotificationEvent };
    resourceId: string;
    family: EventFamily;
    waitMs: number;
    label: string;
    groupId: string | null;
  },
): Promise<void> {
  await pool.query(
    `insert into notification_send_history
       (notification_id, status, source_event, resource_id, idempotency_key, recipient, reason, not_before, payload, group_id)
     values ($1, 'pending', $2, $3::uuid, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000), $8, $9::uuid)
     on conflict (idempotency_key) do nothing`,
    [
      entry.notificationId,
      entry.event.name,
      entry.resourceId,
      `${entry.notificationId}:${entry.event.id}:${WAIT_RECIPIENT}`,
      WAIT_RECIPIENT,
      `Waiting ${entry.label} (waitFor): sent then only if the ${entry.family} is still ${healthOfEvent(entry.event.name)}`,
      entry.waitMs,
      JSON.stringify(entry.event),
      entry.groupId,
    ],
  );
}

export interface DueWait {
  id: string;
  notificationId: string;
  /** WAIT_RECIPIENT for a waitFor hold; another hold (the fallback's) names its own. */
  recipient: string;
  event: QueuedEvent & { name: NotificationEvent };
  /** The held row's payload as written, for what a hold keeps beside the event. */
  payload: unknown;
  /** The group (groupBy) the resource joined when the event was held. */
  groupId: string | null;
  attempts: number;
}

function queuedEventOf(payload: unknown): (QueuedEvent & { name: NotificationEvent }) | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const event = payload as Partial<QueuedEvent>;
  if (typeof event.id !== 'string' || typeof event.name !== 'string' || !isNotificationEvent(event.name)) return null;
  return {
    id: event.id,
    name: event.name,
    properties: typeof event.properties === 'object' && event.properties !== null ? event.properties : {},
    attempts: typeof event.attempts === 'number' ? event.attempts : 1,
    priority: typeof event.priority === 'number' ? event.priority : 0,
    created_at: typeof event.created_at === 'string' ? event.created_at : '',
  };
}

/**
 * Claims waiting rows whose time has come, oldest first: each is pushed WAIT_CLAIM_LEASE_MS ahead so no other pass
 * takes it while this one releases it. A row whose payload cannot be read is settled as failed here.
 */
export async function claimDueWaits(pool: pg.Pool, limit: number): Promise<DueWait[]> {
  const result = await pool.query<{ id: string; notification_id: string; recipient: string | null; payload: unknown; attempts: number; group_id: string | null }>(
    `update notification_send_history h
        set not_before = now() + make_interval(secs => $2::double precision / 1000), attempts = h.attempts + 1
      where h.id in (select id from notification_send_history
                      where status = 'pending' and not_before is not null and not_before <= now()
                      order by not_before limit $1 for update skip locked)
      returning h.id, h.notification_id, h.recipient, h.payload, h.attempts, h.group_id`,
    [limit, WAIT_CLAIM_LEASE_MS],
  );
  const due: DueWait[] = [];
  for (const row of result.rows) {
    const event = queuedEventOf(row.payload);
    if (event === null) await settleWait(pool, row.id, 'failed', 'The held event could not be read back');
    else due.push({ id: row.id, notificationId: row.notification_id, recipient: row.recipient ?? WAIT_RECIPIENT, event, payload: row.payload, groupId: row.group_id, attempts: row.attempts });
  }
  return due;
}

/** Ends a wait: skipped (the health moved on) or failed (with why). */
export async function settleWait(pool: pg.Pool, id: string, status: 'skipped' | 'failed', text: string): Promise<void> {
  await pool.query(
    `update notification_send_history set status = $2, reason = case when $2 = 'skipped' then $3 else reason end,
            error = case when $2 = 'failed' then $3 else error end, not_before = null
      where id = $1`,
    [id, status, text],
  );
}

/** The sends of a released wait all went out: the waiting row gives way to the recipients' rows. */
export async function dropWait(pool: pg.Pool, id: string): Promise<void> {
  await pool.query(`delete from notification_send_history where id = $1`, [id]);
}

/** Some sends of a released wait failed: tried again later, or left as failed after WAIT_RELEASE_ATTEMPTS. */
export async function retryWait(pool: pg.Pool, wait: DueWait, error: string): Promise<void> {
  if (wait.attempts >= WAIT_RELEASE_ATTEMPTS) {
    await settleWait(pool, wait.id, 'failed', error);
    return;
  }
  await pool.query(
    `update notification_send_history set error = $2, not_before = now() + make_interval(secs => $3::double precision / 1000) where id = $1`,
    [wait.id, error, RETRY_MS * 2 ** (wait.attempts - 1)],
  );
}
