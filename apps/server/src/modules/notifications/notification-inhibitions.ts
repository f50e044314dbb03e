import type pg from 'pg';
import { isRecord } from '../../platform/json-values';

/**
 * Mission Control's inhibitions (issue #32): a catalog item's event is not sent while this notification has lately sent
 * one for a related item of the inhibiting type, so a failing Pod does not page again through its ReplicaSet and
 * Deployment. "Lately" is the notification's repeatInterval, as in Mission Control, so inhibitions need one.
 */

export type InhibitionDirection = 'outgoing' | 'incoming' | 'all';

export interface Inhibition {
  direction: InhibitionDirection;
  /** The inhibiting type: an item of this type whose message was sent holds back the others. */
  from: string;
  /** The types held back. */
  to: string[];
  /** Walks config_relationships too, not only the parent tree. */
  soft: boolean;
  depth: number;
}

/** Mission Control's depth when none is given. */
export const DEFAULT_INHIBITION_DEPTH = 5;
/** related_configs_recursive walks at most this far; a deeper inhibition is refused rather than cut short. */
export const MAX_INHIBITION_DEPTH = 10;
const DIRECTIONS: readonly InhibitionDirection[] = ['outgoing', 'incoming', 'all'];

function isDirection(value: unknown): value is InhibitionDirection {
  return typeof value === 'string' && (DIRECTIONS as readonly string[]).includes(value);
}

function isTypeName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The inhibitions of properties.inhibitions, or why they are not valid. */
export function parseInhibitions(value: unknown): Inhibition[] | { problem: string } {
  if (!Array.isArray(value) || value.length === 0) return { problem: 'inhibitions must be a non-empty list of {direction, from, to, soft, depth}' };
  const parsed: Inhibition[] = [];
  for (const [index, entry] of value.entries()) {
    const at = `inhibitions[${index}]`;
    if (!isRecord(entry)) return { problem: `${at} must be an object` };
    const unknown = Object.keys(entry).filter((key) => !['direction', 'from', 'to', 'soft', 'depth'].includes(key));
    if (unknown.length > 0) return { problem: `${at}.${unknown[0] ?? ''} is not a field of an inhibition` };
    if (!isDirection(entry.direction)) return { problem: `${at}.direction must be one of ${DIRECTIONS.join(', ')}` };
    if (!isTypeName(entry.from)) return { problem: `${at}.from must name a catalog type, e.g. Kubernetes::Pod` };
    if (!Array.isArray(entry.to) || entry.to.length === 0 || !entry.to.every(isTypeName)) {
      return { problem: `${at}.to must be a non-empty list of catalog types, e.g. [Kubernetes::Deployment]` };
    }
    if (entry.soft !== undefined && typeof entry.soft !== 'boolean') return { problem: `${at}.soft must be true or false` };
    const depth = entry.depth ?? DEFAULT_INHIBITION_DEPTH;
    if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1 || depth > MAX_INHIBITION_DEPTH) {
      return { problem: `${at}.depth must be a whole number from 1 to ${MAX_INHIBITION_DEPTH}` };
    }
    parsed.push({ direction: entry.direction, from: entry.from, to: entry.to, soft: entry.soft === true, depth });
  }
  return parsed;
}

/**
 * The walk goes from the held-back item towards the inhibiting one, so against the written direction: an "incoming"
 * inhibition from Pod to Deployment walks a Deployment's children to find its Pods.
 */
const WALK: Readonly<Record<InhibitionDirection, InhibitionDirection>> = { outgoing: 'incoming', incoming: 'outgoing', all: 'all' };

export interface Inhibitor {
  type: string;
  name: string;
  event: string;
  at: string;
}

/**
 * The first send of this notification, inside the window, to a related item of an inhibition's `from` type, when the
 * item (of `type`) is one an inhibition holds back; null when it is sent.
 */
export async function findInhibitor(
  pool: pg.Pool,
  entry: { notificationId: string; resourceId: string; type: string; inhibitions: readonly Inhibition[]; windowMs: number },
): Promise<Inhibitor | null> {
  for (const inhibition of entry.inhibitions) {
    if (!inhibition.to.includes(entry.type)) continue;
    const relation = inhibition.soft ? 'both' : 'hard';
    const result = await pool.query<Inhibitor>(
      `select r.type, r.name, h.source_event as event, h.created_at::text as at
         from related_configs_recursive($1::uuid, false, $2::integer, array[$3::text], null, null, $4, $5, $5) r
         join notification_send_history h on h.resource_id = r.id
        where h.notification_id = $6 and h.status = 'sent' and r.id <> $1::uuid
          and h.created_at >= now() - make_interval(secs => $7::double precision / 1000)
        order by h.created_at desc limit 1`,
      [entry.resourceId, inhibition.depth, inhibition.from, WALK[inhibition.direction], relation, entry.notificationId, entry.windowMs],
    );
    const inhibitor = result.rows[0];
    if (inhibitor !== undefined) return inhibitor;
  }
  return null;
}
