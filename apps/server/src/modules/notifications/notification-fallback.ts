import { parseDurationMs } from '@opsdeck/shared';
import type pg from 'pg';
import { isRecord } from '../../platform/json-values';
import type { QueuedEvent } from '../../platform/event-queue';
import type { NotificationEvent } from './notification-events';
import { customServicesOf, type NotificationTarget } from './recipients';

/**
 * Mission Control's fallback (issue #32): when a message of the notification fails to reach its recipient, it goes to
 * the fallback recipient instead, `delay` later. The failure is read again when that time comes: a primary the queue's
 * retry delivered meanwhile needs no fallback, which is what the delay is for ("wait this long before considering a
 * send a failure"). The fallback's recipient is one the notification itself names, stored in properties.fallback as
 * exactly one of person_id, team_id, custom_services or playbook_id, as the notification's own recipient is.
 */

/** The recipient key of the row that holds an event for its fallback. */
export const FALLBACK_RECIPIENT = 'fallback';

export interface Fallback {
  target: Pick<NotificationTarget, 'person_id' | 'team_id' | 'custom_services' | 'playbook_id'>;
  delayMs: number;
  /** As written (5m), for reasons. */
  delay: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RECIPIENT_KEYS = ['person_id', 'team_id', 'custom_services', 'playbook_id'] as const;

/** properties.fallback as the engine reads it, or why it is not valid. */
export function parseFallback(value: unknown): Fallback | { problem: string } {
  if (!isRecord(value)) return { problem: 'fallback must be an object naming one of person_id, team_id, custom_services or playbook_id, and optionally a delay' };
  const unknown = Object.keys(value).filter((key) => key !== 'delay' && !(RECIPIENT_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) return { problem: `fallback.${unknown[0] ?? ''} is not a field of a fallback` };
  const named = RECIPIENT_KEYS.filter((key) => value[key] !== undefined && value[key] !== null);
  if (named.length !== 1) return { problem: `fallback must name exactly one of ${RECIPIENT_KEYS.join(', ')}` };
  const [key] = named as [(typeof RECIPIENT_KEYS)[number]];
  const recipient = value[key];
  if (key !== 'custom_services' && !(typeof recipient === 'string' && UUID.test(recipient))) return { problem: `fallback.${key} must be an id` };
  if (key === 'custom_services' && customServicesOf(recipient) === null) {
    return { problem: 'fallback.custom_services is a list of {connection, name, ...options} with a connection in each' };
  }
  let delayMs = 0;
  if (value.delay !== undefined) {
    const parsed = typeof value.delay === 'string' || typeof value.delay === 'number' ? parseDurationMs(value.delay) : null;
    if (parsed === null) return { problem: 'fallback.delay must be a duration, e.g. 5m' };
    delayMs = parsed;
  }
  return {
    target: {
      person_id: key === 'person_id' ? String(recipient) : null,
      team_id: key === 'team_id' ? String(recipient) : null,
      custom_services: key === 'custom_services' ? recipient : null,
      playbook_id: key === 'playbook_id' ? String(recipient) : null,
    },
    delayMs,
    delay: value.delay === undefined ? null : String(value.delay),
  };
}

/** The fallback of a stored notification's properties; null when it has none (or one no save rule would pass). */
export function fallbackOf(properties: Record<string, unknown>): Fallback | null {
  if (properties.fallback === undefined) return null;
  const parsed = parseFallback(properties.fallback);
  return 'problem' in parsed ? null : parsed;
}

/**
 * Holds the event for the fallback: one row per notification and event however often its primary fails (the queue's
 * retries), due `delayMs` from now. `failed` are the recipient keys whose sends failed, read again at release.
 */
export async function holdFallback(
  pool: pg.Pool,
  entry: { notificationId: string; event: QueuedEvent & { name: NotificationEvent }; resourceId: string | null; delayMs: number; failed: readonly string[]; reason: string },
): Promise<void> {
  await pool.query(
    `insert into notification_send_history
       (notification_id, status, source_event, resource_id, idempotency_key, recipient, reason, not_before, payload)
     values ($1, 'pending', $2, $3::uuid, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000), $8)
     on conflict (idempotency_key) do nothing`,
    [
      entry.notificationId,
      entry.event.name,
      entry.resourceId,
      `${entry.notificationId}:${entry.event.id}:${FALLBACK_RECIPIENT}`,
      FALLBACK_RECIPIENT,
      entry.reason,
      entry.delayMs,
      JSON.stringify({ ...entry.event, failedRecipients: entry.failed }),
    ],
  );
}

/** The recipient keys a held fallback was written for (see holdFallback). */
export function failedRecipientsOf(payload: unknown): string[] {
  if (!isRecord(payload) || !Array.isArray(payload.failedRecipients)) return [];
  return payload.failedRecipients.filter((key): key is string => typeof key === 'string');
}

/** Whether any of these primary sends of the event is still not sent. */
export async function primaryStillFailed(pool: pg.Pool, notificationId: string, eventId: string, failed: readonly string[]): Promise<boolean> {
  const result = await pool.query<{ failed: boolean }>(
    `select exists (select 1 from notification_send_history where idempotency_key = any ($1::text[]) and status <> 'sent') as failed`,
    [failed.map((key) => `${notificationId}:${eventId}:${key}`)],
  );
  return result.rows[0]?.failed === true;
}
