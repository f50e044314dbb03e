import { can, type PlaybookSpec } from '@opsdeck/shared';
import type pg from 'pg';
import type { Principal } from '../../platform/principal';
import { isRecord } from '../../platform/json-values';
import type { WriteMethod } from '../../data-api/write-hooks';
import { offersTargets, parsePlaybookSpec } from '../playbooks';
import { notificationErrors } from './notification-errors';
import { familyOf, isNotificationEvent } from './notification-events';

/**
 * Mission Control's playbook recipient (spec.to.playbook, spec.fallback.playbook): the notification requests a run of
 * the playbook on the event's resource. What can be known when it is saved is judged then, so a notification that
 * could never run its playbook is refused instead of failing on every event.
 */

type Row = Readonly<Record<string, unknown>>;
type PlaybookField = 'playbook_id' | 'properties.fallback';

const SELECTORS = { check: 'checks', component: 'components', config: 'configs' } as const;
const LABELS = { check: 'check', component: 'component', config: 'catalog item' } as const;

/** The playbooks a row names, with where: its own recipient and its fallback's. */
function playbooksOf(row: Row): Array<{ id: unknown; field: PlaybookField }> {
  const named: Array<{ id: unknown; field: PlaybookField }> = [];
  if (row.playbook_id !== undefined && row.playbook_id !== null && row.playbook_id !== '') named.push({ id: row.playbook_id, field: 'playbook_id' });
  const fallback = isRecord(row.properties) ? row.properties.fallback : undefined;
  if (isRecord(fallback) && fallback.playbook_id !== undefined && fallback.playbook_id !== null) named.push({ id: fallback.playbook_id, field: 'properties.fallback' });
  return named;
}

/**
 * A playbook run the notification requests has no person behind it, so whoever makes a notification run one must be
 * allowed to request that run themselves.
 */
export function checkPlaybookPermission(rows: readonly Row[], method: WriteMethod, principal: Principal | null): void {
  if (method === 'DELETE') return;
  for (const row of rows) {
    const [first] = playbooksOf(row);
    if (first !== undefined && !can(principal?.roles ?? [], 'playbook_runs', 'write')) throw notificationErrors.playbookForbidden(first.field);
  }
}

/** Why runs of this spec cannot be requested for these events, or null when they can (for some resources at least). */
function runProblem(label: string, spec: PlaybookSpec, events: readonly string[]): string | null {
  for (const event of events) {
    if (!isNotificationEvent(event)) continue;
    const family = familyOf(event);
    if (family === 'playbook') {
      if (offersTargets(spec)) return `${label} runs on a resource, and ${event} has none to give it`;
      continue;
    }
    if ((spec[SELECTORS[family]] ?? []).length === 0) {
      return `${label} is not offered for any ${LABELS[family]} (it has no ${SELECTORS[family]} selector), so ${event} could never run it`;
    }
  }
  const required = (spec.parameters ?? []).find((parameter) => parameter.required === true && (parameter.default ?? '') === '');
  return required === undefined ? null : `${label} requires the parameter ${required.name}, which has no default, and a notification gives no parameters`;
}

/**
 * Why the playbook with this id cannot be run by a notification of these events, or null. `events` null: not known
 * (a PATCH that leaves them as they are), so only that the playbook exists is judged.
 */
export async function playbookRecipientProblem(pool: pg.Pool, id: unknown, events: readonly string[] | null): Promise<string | null> {
  const found =
    typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
      ? await pool.query<{ namespace: string; name: string; spec: unknown }>('select namespace, name, spec from playbooks where id = $1 and deleted_at is null', [id])
      : null;
  const playbook = found?.rows[0];
  if (playbook === undefined) return `${JSON.stringify(id)} is not a playbook here`;
  const label = `the playbook ${playbook.namespace}/${playbook.name}`;
  let spec: PlaybookSpec;
  try {
    spec = parsePlaybookSpec(playbook.spec);
  } catch (error) {
    return `${label} has a spec that does not run: ${error instanceof Error ? error.message : String(error)}`;
  }
  return events === null ? null : runProblem(label, spec, events);
}

/** The data API's rule: each playbook a row names exists and can run for the row's events. */
export async function checkNotificationPlaybooks(pool: pg.Pool, rows: readonly Row[]): Promise<void> {
  for (const row of rows) {
    const events = Array.isArray(row.events) ? row.events.filter((event): event is string => typeof event === 'string') : null;
    for (const { id, field } of playbooksOf(row)) {
      const problem = await playbookRecipientProblem(pool, id, events);
      if (problem !== null) throw notificationErrors.playbook(problem, field);
    }
  }
}
