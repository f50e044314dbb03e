import { createHash } from 'node:crypto';
import { parseDurationMs } from '@opsdeck/shared';
import type pg from 'pg';
import { isRecord } from '../../platform/json-values';
import type { EventFamily } from './notification-events';

/**
 * Mission Control's groupBy (issue #32, migration 0132): the resources of a notification's events are gathered into
 * groups by the values of its keys; a message lists the rest of its group, and inside the repeat interval one message
 * goes out per group and event. A group lives for groupByInterval (default 24 h) from its creation.
 */

export const DEFAULT_GROUP_BY_INTERVAL_MS = 24 * 60 * 60_000;
/** A message lists at most this many other members: enough to see the scale, short enough for any provider. */
export const GROUPED_RESOURCES_LIMIT = 50;
const PLAIN_KEYS = ['type', 'description', 'status_reason'] as const;

/** Why these are not groupBy keys, or null: type, description, status_reason, label:<key> or tag:<key>. */
export function groupByProblem(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return 'groupBy must be a non-empty list of keys: type, description, status_reason, label:<key> or tag:<key>';
  for (const key of value) {
    if (typeof key !== 'string') return 'each groupBy key must be text';
    if ((PLAIN_KEYS as readonly string[]).includes(key)) continue;
    if (/^(label|tag):.+$/.test(key)) continue;
    return `groupBy key ${JSON.stringify(key)} is not one of type, description, status_reason, label:<key> or tag:<key>`;
  }
  return null;
}

/**
 * The replacements Mission Control applies before comparing descriptions, so two messages that differ only in ids,
 * times, durations, digests or counts fall into one group.
 */
const TOKENS: ReadonlyArray<[RegExp, string]> = [
  [/\b[0-9a-f]{8}\b-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-\b[0-9a-f]{12}\b/g, 'UUID'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, 'TIMESTAMP'],
  [/\s+\d+(.\d+)?(ms|s|h|d|m)/g, 'DURATION'],
  [/[a-z0-9]{64}/g, 'SHA256'],
  [/^\d+$/g, 'NUMBER'],
  [/[0-9a-f]{16}/g, 'HEX16'],
];

export function tokenized(text: string): string {
  return TOKENS.reduce((out, [pattern, token]) => out.replace(pattern, token), text);
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function mapValue(map: unknown, key: string): string {
  return isRecord(map) ? textOf(map[key]) : '';
}

/** What a key reads from a resource of the family; empty when the family has no such field. */
function valueOf(key: string, family: EventFamily, resource: Record<string, unknown>): string {
  if (key.startsWith('label:')) return mapValue(resource.labels, key.slice('label:'.length));
  if (key.startsWith('tag:')) return family === 'config' ? mapValue(resource.tags, key.slice('tag:'.length)) : '';
  if (key === 'type') return textOf(resource.type);
  const description = family === 'component' ? textOf(resource.status_reason) : textOf(resource.description);
  const name = textOf(resource.name);
  return description === '' ? '' : tokenized(name === '' ? description : description.replaceAll(name, '<name>'));
}

/**
 * The group key of a resource: a digest of each key's value; null when every value is empty, as Mission Control
 * leaves such a resource out of any group.
 */
export function groupHash(keys: readonly string[], family: EventFamily, resource: Record<string, unknown>): string | null {
  const values = keys.map((key) => valueOf(key, family, resource));
  if (values.every((value) => value === '')) return null;
  return createHash('sha256').update(JSON.stringify(keys.map((key, index) => [key, values[index]]))).digest('hex');
}

export interface Grouping {
  keys: string[];
  intervalMs: number;
}

/** The grouping of a stored notification's properties; null when it has none (or one no save rule would pass). */
export function groupingOf(properties: Record<string, unknown>): Grouping | null {
  if (properties.groupBy === undefined || groupByProblem(properties.groupBy) !== null) return null;
  const raw = properties.groupByInterval;
  const interval = typeof raw === 'string' || typeof raw === 'number' ? parseDurationMs(raw) : null;
  return { keys: properties.groupBy as string[], intervalMs: interval !== null && interval > 0 ? interval : DEFAULT_GROUP_BY_INTERVAL_MS };
}

/**
 * Adds the resource to the newest group of the notification and hash still inside the interval, opening one when
 * there is none; returns the group's id. One transaction under a lock per notification and hash, so two delivery loops
 * adding two resources at once join the same group.
 */
export async function joinGroup(
  pool: pg.Pool,
  entry: { notificationId: string; hash: string; intervalMs: number; resourceId: string; family: Exclude<EventFamily, 'playbook'> },
): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`notification-group:${entry.notificationId}:${entry.hash}`]);
    const found = await client.query<{ id: string }>(
      `select id from notification_groups
        where notification_id = $1 and hash = $2 and created_at > now() - make_interval(secs => $3::double precision / 1000)
        order by created_at desc limit 1`,
      [entry.notificationId, entry.hash, entry.intervalMs],
    );
    const id =
      found.rows[0]?.id ??
      (await client.query<{ id: string }>('insert into notification_groups (notification_id, hash) values ($1, $2) returning id', [entry.notificationId, entry.hash])).rows[0]?.id;
    if (id === undefined) throw new Error('the notification group could not be written');
    await client.query(
      `insert into notification_group_resources (group_id, resource_id, family) values ($1, $2::uuid, $3) on conflict (group_id, resource_id) do nothing`,
      [id, entry.resourceId, entry.family],
    );
    await client.query('commit');
    return id;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The other members of the group, as namespace/type/name, that still have one of `healths` (those the notification's
 * events report): a member that recovered, or was deleted, has left the group's trouble.
 */
export async function groupedResources(pool: pg.Pool, groupId: string, resourceId: string, healths: readonly string[]): Promise<string[]> {
  const result = await pool.query<{ label: string }>(
    `select concat_ws('/', nullif(m.namespace, ''), m.type, m.name) as label
       from notification_group_resources r
       cross join lateral (
         select c.tags ->> 'namespace' as namespace, c.type, c.name, c.health from config_items c
          where r.family = 'config' and c.id = r.resource_id and c.deleted_at is null
         union all
         select k.namespace, k.type, k.name, k.status from checks k
          where r.family = 'check' and k.id = r.resource_id and k.deleted_at is null
         union all
         select p.namespace, p.type, p.name, p.status from components p
          where r.family = 'component' and p.id = r.resource_id and p.deleted_at is null
       ) m
      where r.group_id = $1 and r.resource_id <> $2::uuid and m.health = any ($3::text[])
      order by r.created_at, r.resource_id
      limit $4`,
    [groupId, resourceId, healths, GROUPED_RESOURCES_LIMIT],
  );
  return result.rows.map((row) => row.label);
}
