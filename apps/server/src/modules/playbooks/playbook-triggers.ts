import type pg from 'pg';
import { ACTIVE_PLAYBOOK_RUN_STATUSES, type PlaybookEventTrigger, type PlaybookSpec, type PlaybookTargetType, type PlaybookTriggerKind } from '@opsdeck/shared';
import type { EventBus } from '../../platform/event-bus';
import type { EventHandler, QueuedEvent } from '../../platform/event-queue';
import { evaluateRuleFilter } from '../incident-rules';
import { requestPlaybookRun } from './run-store';
import { loadTarget, targetMatches } from './selectors';
import { parsePlaybookSpec } from './spec';
import type { PlaybookTarget } from './types';

/** The event-queue consumer of playbook `on` triggers: it gets its own copy of each event it handles (ADR 0055). */
export const PLAYBOOK_TRIGGERS_CONSUMER = 'playbook-triggers';

interface EventSource {
  kind: PlaybookTriggerKind;
  event: string;
  type: PlaybookTargetType;
  idKey: string;
  /** The status the check or component must still have: a late event of a source that has changed again starts nothing. */
  liveStatus: string;
}

const EVENT_SOURCES: Readonly<Record<string, EventSource>> = {
  'check.failed': { kind: 'canary', event: 'failed', type: 'check', idKey: 'check_id', liveStatus: 'unhealthy' },
  'check.passed': { kind: 'canary', event: 'passed', type: 'check', idKey: 'check_id', liveStatus: 'healthy' },
  'component.healthy': { kind: 'component', event: 'healthy', type: 'component', idKey: 'component_id', liveStatus: 'healthy' },
  'component.unhealthy': { kind: 'component', event: 'unhealthy', type: 'component', idKey: 'component_id', liveStatus: 'unhealthy' },
  'component.warning': { kind: 'component', event: 'warning', type: 'component', idKey: 'component_id', liveStatus: 'warning' },
  'component.unknown': { kind: 'component', event: 'unknown', type: 'component', idKey: 'component_id', liveStatus: 'unknown' },
};

export const PLAYBOOK_TRIGGER_EVENT_NAMES = Object.keys(EVENT_SOURCES);

const SELECTORS_OF: Readonly<Record<PlaybookTargetType, 'configs' | 'components' | 'checks'>> = { config: 'configs', component: 'components', check: 'checks' };

export interface TriggerDeps {
  pool: pg.Pool;
  bus?: EventBus;
  secretKey?: Buffer;
  /** Told when a trigger matched and no run was started, with the reason (a filter that failed, a run already under way). */
  onSkipped?: (playbook: { id: string; name: string }, target: PlaybookTarget, reason: string) => void;
}

function labelsMatch(wanted: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(wanted ?? {}).every(([key, value]) => labels[key] === value);
}

/** Whether one trigger fires for the source; a filter that cannot be evaluated does not fire, and says why. */
function fires(trigger: PlaybookEventTrigger, source: EventSource, target: PlaybookTarget): { fires: boolean; problem?: string } {
  if (trigger.event !== source.event || !labelsMatch(trigger.labels, target.labels)) return { fires: false };
  if (trigger.filter === undefined) return { fires: true };
  const outcome = evaluateRuleFilter(trigger.filter, { [source.type]: target.row });
  if ('error' in outcome) return { fires: false, problem: `the filter '${trigger.filter}' did not evaluate: ${outcome.error}` };
  return { fires: outcome.match };
}

/**
 * A playbook that runs on this kind of resource only for some (its configs/components/checks selectors) still runs
 * only on those: `on` says when, the selectors say on what. One that names none of this kind runs on any.
 */
function offeredFor(spec: PlaybookSpec, target: PlaybookTarget): boolean {
  return (spec[SELECTORS_OF[target.type]]?.length ?? 0) === 0 || targetMatches(spec, target);
}

/** Parsed specs by playbook id, kept while the row's updated_at stays: events come far more often than playbooks change. */
class TriggerSpecs {
  private readonly cache = new Map<string, { updatedAt: string; name: string; spec: PlaybookSpec | null }>();

  /** The live playbooks that have triggers, parsed; one whose spec no longer passes the save rules is left out. */
  async load(pool: pg.Pool): Promise<Array<{ id: string; name: string; spec: PlaybookSpec }>> {
    const rows = await pool.query<{ id: string; updated_at: string }>('select id, updated_at::text as updated_at from playbooks where deleted_at is null order by created_at, id');
    const stale = rows.rows.filter((row) => this.cache.get(row.id)?.updatedAt !== row.updated_at).map((row) => row.id);
    if (stale.length > 0) {
      const fresh = await pool.query<{ id: string; name: string; updated_at: string; spec: unknown }>(
        'select id, name, updated_at::text as updated_at, spec from playbooks where id = any ($1::uuid[])',
        [stale],
      );
      for (const row of fresh.rows) {
        let spec: PlaybookSpec | null;
        try {
          spec = parsePlaybookSpec(row.spec);
        } catch {
          // Stored before a save rule it now fails: the playbook page shows the problem; an event must not run it.
          spec = null;
        }
        this.cache.set(row.id, { updatedAt: row.updated_at, name: row.name, spec: spec?.on === undefined ? null : spec });
      }
    }
    const live = new Set(rows.rows.map((row) => row.id));
    for (const id of this.cache.keys()) if (!live.has(id)) this.cache.delete(id);
    return rows.rows.flatMap((row) => {
      const cached = this.cache.get(row.id);
      return cached?.spec === null || cached === undefined ? [] : [{ id: row.id, name: cached.name, spec: cached.spec }];
    });
  }
}

async function runUnderWay(pool: pg.Pool, playbookId: string, target: PlaybookTarget): Promise<boolean> {
  const found = await pool.query(
    `select 1 from playbook_runs where playbook_id = $1 and ${target.type}_id = $2 and status = any ($3::text[]) limit 1`,
    [playbookId, target.id, [...ACTIVE_PLAYBOOK_RUN_STATUSES]],
  );
  return (found.rowCount ?? 0) > 0;
}

async function handle(deps: TriggerDeps, specs: TriggerSpecs, source: EventSource, event: QueuedEvent): Promise<void> {
  const raw = event.properties[source.idKey] ?? event.properties.id;
  if (typeof raw !== 'string') return;
  const target = await loadTarget(deps.pool, source.type, raw);
  if (target === null || target.status !== source.liveStatus) return;
  for (const playbook of await specs.load(deps.pool)) {
    const { spec } = playbook;
    const triggers = spec.on?.[source.kind] ?? [];
    const verdicts = triggers.map((trigger) => fires(trigger, source, target));
    for (const verdict of verdicts) if (verdict.problem !== undefined) deps.onSkipped?.(playbook, target, verdict.problem);
    if (!verdicts.some((verdict) => verdict.fires) || !offeredFor(spec, target)) continue;
    // A failing check reports again on every run; one run at a time per playbook and resource, not one per report.
    if (await runUnderWay(deps.pool, playbook.id, target)) {
      deps.onSkipped?.(playbook, target, 'a run of this playbook on it is still under way');
      continue;
    }
    await requestPlaybookRun(deps.pool, {
      playbookId: playbook.id,
      target: { type: target.type, id: target.id },
      params: {},
      createdBy: null,
      triggered: true,
      ...(deps.bus === undefined ? {} : { bus: deps.bus }),
      ...(deps.secretKey === undefined ? {} : { secretKey: deps.secretKey }),
    });
  }
}

/** The consumer's handlers: each check or component event starts the playbooks whose `on` it matches. */
export function playbookTriggerHandlers(deps: TriggerDeps): Record<string, EventHandler> {
  const specs = new TriggerSpecs();
  return Object.fromEntries(Object.entries(EVENT_SOURCES).map(([name, source]) => [name, (event: QueuedEvent) => handle(deps, specs, source, event)]));
}
