import type pg from 'pg';
import { parseDurationMs } from '@opsdeck/shared';
import { isRecord } from '../../platform/json-values';
import type { Principal } from '../../platform/principal';
import { writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import type { Database } from '../../db/database';
import { connectionTypeOf } from '../connections';
import { notificationErrors } from './notification-errors';
import { checkFilter } from './notification-filter';
import { isNotificationEvent, type NotificationEvent } from './notification-events';
import { checkTemplate, isTemplateSyntax, TEMPLATE_SYNTAXES } from './notification-templates';
import { customServicesOf } from './recipients';
import { parseFallback } from './notification-fallback';
import { parseInhibitions } from './notification-inhibitions';
import { groupByProblem } from './notification-groups';
import { checkNotificationPlaybooks, checkPlaybookPermission } from './notification-playbook';

const TABLE = 'notifications';
const RECIPIENT_COLUMNS = ['person_id', 'team_id', 'custom_services', 'playbook_id'] as const;
/** Notifications written by other sources (CRDs, GitOps) are changed where they are defined, not in the UI. */
const UI_SOURCES = new Set(['', 'UI']);

type Row = Readonly<Record<string, unknown>>;

function eventsOf(row: Row, method: WriteMethod): NotificationEvent[] | null {
  if (!('events' in row)) {
    if (method === 'POST') throw notificationErrors.events('at least one event is required');
    return null;
  }
  const events = row.events;
  if (!Array.isArray(events) || events.length === 0) throw notificationErrors.events('at least one event is required');
  const unknown = events.filter((event) => typeof event !== 'string' || !isNotificationEvent(event));
  if (unknown.length > 0) throw notificationErrors.events(`${unknown.map((event) => JSON.stringify(event)).join(', ')} is not a notification event`);
  return events as NotificationEvent[];
}

function checkTexts(row: Row, events: readonly NotificationEvent[] | null): void {
  if (typeof row.filter === 'string' && row.filter.trim() !== '') {
    const problem = checkFilter(row.filter, events);
    if (problem !== null) throw notificationErrors.filter(problem);
  }
  if ('template_syntax' in row && !isTemplateSyntax(row.template_syntax)) {
    throw notificationErrors.template('template_syntax', `must be one of ${TEMPLATE_SYNTAXES.join(', ')}`);
  }
  // Texts are checked in the syntax the row names, else Liquid, the console's own. Go-template rows come only from
  // apply, which always names the syntax, and are read-only to every other writer (the source rule below).
  const syntax = isTemplateSyntax(row.template_syntax) ? row.template_syntax : 'liquid';
  for (const field of ['template', 'title'] as const) {
    const text = row[field];
    if (typeof text !== 'string') continue;
    const problem = checkTemplate(text, syntax);
    if (problem !== null) throw notificationErrors.template(field, problem);
  }
}

function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

function checkRecipient(row: Row, method: WriteMethod): void {
  const named = RECIPIENT_COLUMNS.filter((column) => isSet(row[column]));
  if (method === 'POST' && named.length === 0) throw notificationErrors.recipient('none of person_id, team_id, custom_services or playbook_id is set');
  if (named.length > 1) throw notificationErrors.recipient(`${named.join(' and ')} are both set`);
  if (isSet(row.custom_services) && customServicesOf(row.custom_services) === null) {
    throw notificationErrors.recipient('custom_services is a list of {connection, name, ...options} with a connection in each');
  }
}

/** Properties that hold a duration (Mission Control's repeatInterval, waitFor, waitForEvalPeriod and groupByInterval). */
const DURATION_PROPERTIES = ['repeatInterval', 'waitFor', 'waitForEvalPeriod', 'groupByInterval'] as const;

function checkRow(row: Row, method: WriteMethod): void {
  const events = eventsOf(row, method);
  checkTexts(row, events);
  checkRecipient(row, method);
  if ('properties' in row && (typeof row.properties !== 'object' || row.properties === null || Array.isArray(row.properties))) {
    throw notificationErrors.properties('it must be an object');
  }
  for (const name of DURATION_PROPERTIES) {
    const value = isRecord(row.properties) ? row.properties[name] : undefined;
    if (value !== undefined && !((typeof value === 'string' || typeof value === 'number') && parseDurationMs(value) !== null)) {
      throw notificationErrors.properties(`${name} must be a duration, e.g. 4h or 30m`, name);
    }
  }
  const waitFor = isRecord(row.properties) ? parseDurationMs(String(row.properties.waitFor ?? '0')) : 0;
  if (isRecord(row.properties) && row.properties.waitForEvalPeriod !== undefined && (waitFor ?? 0) <= 0) {
    throw notificationErrors.properties('waitForEvalPeriod adds to waitFor: set waitFor too, or leave waitForEvalPeriod out', 'waitForEvalPeriod');
  }
  if (isRecord(row.properties)) checkInhibitionsAndFallback(row.properties, events);

  if ('source' in row && row.source !== null && !(typeof row.source === 'string' && UI_SOURCES.has(row.source))) {
    throw notificationErrors.source(String(row.source));
  }
}

/**
 * Inhibitions, a fallback and grouping would otherwise be stored and never act: inhibitions only hold catalog items
 * back, inside the repeat interval, so they need both; groupByInterval only times the groups of groupBy.
 */
function checkInhibitionsAndFallback(properties: Record<string, unknown>, events: readonly NotificationEvent[] | null): void {
  if (properties.inhibitions !== undefined) {
    const inhibitions = parseInhibitions(properties.inhibitions);
    if ('problem' in inhibitions) throw notificationErrors.properties(inhibitions.problem, 'inhibitions');
    if ((parseDurationMs(String(properties.repeatInterval ?? '0')) ?? 0) <= 0) {
      throw notificationErrors.properties('inhibitions hold messages back for the repeat interval: set repeatInterval too, or leave inhibitions out', 'inhibitions');
    }
    if (events !== null && !events.some((event) => event.startsWith('config.'))) {
      throw notificationErrors.properties('inhibitions hold back catalog items, and this notification sends no config event', 'inhibitions');
    }
  }
  if (properties.fallback !== undefined) {
    const fallback = parseFallback(properties.fallback);
    if ('problem' in fallback) throw notificationErrors.properties(fallback.problem, 'fallback');
  }
  if (properties.groupBy !== undefined) {
    const problem = groupByProblem(properties.groupBy);
    if (problem !== null) throw notificationErrors.properties(problem, 'groupBy');
  }
  if (properties.groupByInterval !== undefined && properties.groupBy === undefined) {
    throw notificationErrors.properties('groupByInterval is how long a group of groupBy lives: set groupBy too, or leave groupByInterval out', 'groupByInterval');
  }
}

/** Spec 001 §5/§6 save rules of a notification that need no database; throws a coded 400 on the first problem. */
export function validateNotificationRows(rows: readonly Row[], method: WriteMethod): void {
  if (method === 'DELETE') return;
  for (const row of rows) checkRow(row, method);
}

/**
 * The creator is whoever saved it, never what the body claims; `source` is UI for what the UI writes. A PATCH naming a
 * recipient replaces the previous one, so a row never ends up with two.
 */
export function fillNotificationRows(rows: readonly Row[], method: WriteMethod, principal: Principal | null): Array<Record<string, unknown>> {
  if (method === 'DELETE') return rows.map((row) => ({ ...row }));
  return rows.map((row) => {
    const filled: Record<string, unknown> = { ...row };
    delete filled.created_by;
    if (method === 'POST') return { ...filled, created_by: principal?.personId ?? null, source: 'UI' };
    if (RECIPIENT_COLUMNS.some((column) => isSet(row[column]))) {
      for (const column of RECIPIENT_COLUMNS) if (!isSet(row[column])) filled[column] = null;
    }
    return filled;
  });
}

/**
 * Each custom service, the fallback's too, names a connection whose type a provider delivers to. `planned` holds the connections an apply
 * is about to write in the same change (`connection://namespace/name` → type), which the database does not hold yet.
 * A connection that does not exist at all is accepted, as for canaries and scrapers and as Kubernetes accepts a
 * Notification before its Connection: each send fails naming it (in the send history) until it is created, and its
 * type is judged then.
 */
export async function checkNotificationConnections(
  pool: pg.Pool,
  deliverable: readonly string[],
  rows: readonly Row[],
  planned: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  for (const row of rows) {
    const fallback = isRecord(row.properties) && row.properties.fallback !== undefined ? parseFallback(row.properties.fallback) : null;
    const lists: Array<[unknown, 'custom_services' | 'properties.fallback']> = [[row.custom_services, 'custom_services']];
    if (fallback !== null && !('problem' in fallback)) lists.push([fallback.target.custom_services, 'properties.fallback']);
    for (const [list, field] of lists) {
      for (const service of customServicesOf(list) ?? []) {
        let type: string | undefined;
        try {
          type = planned.get(service.connection) ?? (await connectionTypeOf(pool, service.connection));
        } catch (error) {
          throw notificationErrors.connection(error instanceof Error ? error.message : String(error), deliverable, field);
        }
        if (type !== undefined && !deliverable.includes(type)) {
          throw notificationErrors.connection(`connection '${service.connection}' is of type ${type}, which notifications cannot deliver to`, deliverable, field);
        }
      }
    }
  }
}

/** Registers the save rules on every data-API write of notifications (POST, upsert and PATCH). */
export function registerNotificationSaveRules(db: Database, deliverable: readonly string[]): void {
  const hooks = writeHooksFor(db);
  hooks.registerCheck(TABLE, async (rows, method) => {
    if (method === 'DELETE') return;
    // The cheap rules first, so a bad body is refused with their codes before any connection is looked up.
    validateNotificationRows(rows, method);
    await checkNotificationConnections(db.pool, deliverable, rows);
    await checkNotificationPlaybooks(db.pool, rows);
  });
  hooks.register(TABLE, (rows, method) => validateNotificationRows(rows, method));
  hooks.register(TABLE, checkPlaybookPermission);
  hooks.registerTransform(TABLE, (rows, method, principal) => fillNotificationRows(rows, method, principal));
}
