import { createHash } from 'node:crypto';
import type { ItemKey, ScrapedChange } from '../types';
import { isRecord, text } from '../../../platform/json-values';

/**
 * config-db's full mode (`spec.full: true`, ADR 0072): a scraped item carries data about the config beside the config
 * itself. `config` is the config when present; `changes` become the item's changes. The access data config-db keeps
 * in tables of its own (users, groups, roles, who may reach what and when they did) is not run by this server: each
 * key found is reported as an error of the run, never dropped unseen.
 */

/** config-db's keys for access data, with the short names it reads as well. */
const ACCESS_KEYS: ReadonlyArray<readonly [string, ...string[]]> = [
  ['analysis'],
  ['access_logs', 'logs'],
  ['config_access', 'access'],
  ['external_users', 'users'],
  ['external_groups', 'groups'],
  ['external_user_groups', 'user_groups'],
  ['external_roles', 'roles'],
];

/** Change actions that move, copy or delete configs; this server stores changes as they are and does none of them. */
const UNRUN_ACTIONS = new Set(['delete', 'move-up', 'copy-up', 'move', 'copy']);

/** Fields of config-db's ChangeResult this server does not store or act on: named as not run, never dropped unseen. */
const UNRUN_CHANGE_FIELDS = ['configID', 'scraper_id', 'patches', 'diff', 'created_by', 'update_existing'] as const;

/** The fields of a change that this server would not honour, for the collector to report once per source. */
export function unrunChangeFields(raw: unknown): string[] {
  if (!isRecord(raw)) return [];
  return UNRUN_CHANGE_FIELDS.filter((field) => present(raw[field]) && raw[field] !== false).map(
    (field) => `full mode: changes[].${field} is not run by this server: the change is stored without it`,
  );
}

const SEVERITIES = new Set<ScrapedChange['severity']>(['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']);

export interface FullModeParts {
  /** What the item stores as its config: the `config` key, or the whole piece when it has none. */
  config: unknown;
  /** Whether the piece is only access data (no `config` key): config-db makes no config of it. */
  accessOnly: boolean;
  changes: unknown[];
  /** One message per part this server does not run. */
  notRun: string[];
}

function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isRecord(value) || Object.keys(value).length > 0;
}

/** Splits one piece as config-db's full mode does; throws when `changes` is not a list. */
export function fullModeParts(piece: unknown): FullModeParts {
  if (!isRecord(piece)) return { config: piece, accessOnly: false, changes: [], notRun: [] };
  const hasConfig = Object.hasOwn(piece, 'config');
  const changes = piece.changes ?? [];
  if (!Array.isArray(changes)) throw new Error('full mode: changes must be a list of changes');
  const notRun: string[] = [];
  for (const keys of ACCESS_KEYS) {
    const key = keys.find((name) => present(piece[name]));
    if (key === undefined) continue;
    const what = key === 'analysis' ? 'analysis from the source (this server keeps the findings of its own analyzers)' : 'access data';
    notRun.push(`full mode: ${key} is not run by this server: ${what} is not stored; the config and its changes are`);
  }
  return { config: hasConfig ? piece.config : piece, accessOnly: !hasConfig && notRun.length > 0, changes, notRun };
}

function instant(value: unknown, fallback: string): string {
  const raw = text(value);
  if (raw === undefined) return fallback;
  const parsed = new Date(raw);
  return Number.isNaN(parsed.getTime()) ? fallback : parsed.toISOString();
}

/**
 * One entry of `changes` as a change of `item` (or of the config its external_id and config_type name). A change
 * without an external_change_id is known by its content, so the same change read on every run is stored once.
 */
export function fullModeChange(raw: unknown, item: ItemKey, source: string, now: string): ScrapedChange {
  if (!isRecord(raw)) throw new Error('full mode: each change must be an object');
  const action = text(raw.action)?.toLowerCase();
  if (action !== undefined && UNRUN_ACTIONS.has(action)) {
    throw new Error(`full mode: change action '${action}' is not run by this server: changes are stored on their config and never move, copy or delete it`);
  }
  const changeType = text(raw.change_type) ?? text(raw.action) ?? 'Change';
  const severity = text(raw.severity)?.toLowerCase();
  const change: ScrapedChange = {
    item: { type: text(raw.config_type) ?? item.type, externalId: text(raw.external_id) ?? item.externalId },
    externalChangeId: text(raw.external_change_id) ?? `content:${createHash('sha256').update(JSON.stringify(raw)).digest('hex').slice(0, 40)}`,
    changeType,
    severity: severity !== undefined && SEVERITIES.has(severity as ScrapedChange['severity']) ? (severity as ScrapedChange['severity']) : 'info',
    summary: text(raw.summary) ?? changeType,
    source: text(raw.source) ?? source,
    createdAt: instant(raw.created_at, now),
  };
  if (isRecord(raw.details)) change.details = raw.details;
  return change;
}
