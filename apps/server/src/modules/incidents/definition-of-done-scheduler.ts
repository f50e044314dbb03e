import type pg from 'pg';
import { isAutomaticDefinitionOfDoneType } from '@opsdeck/shared';
import type { BusEvent, EventBus } from '../../platform/event-bus';
import type { EventHandler } from '../../platform/event-queue';
import { evaluateDefinitionOfDone, type LinkedRow } from './definition-of-done';

/**
 * Bus events after which the evidences linked to the item named in the payload (or the evidence itself, for
 * evidence.updated) are evaluated again. Any of the payload's id fields is matched.
 */
export const DEFINITION_OF_DONE_TRIGGERS = [
  'check.updated',
  'component.updated',
  'component.status_updated',
  'config.updated',
  'config.changed',
  'config_analysis.updated',
  'evidence.updated',
] as const;

/** The event_queue consumer name of the re-evaluation (ADR 0055). */
export const DEFINITION_OF_DONE_CONSUMER = 'definition-of-done';

/**
 * Queued domain events after which the linked evidences are evaluated again: check results and the health and status
 * changes of items and components, whoever wrote them (the check scheduler, an agent's push, a scraper, a topology run).
 */
export const DEFINITION_OF_DONE_QUEUED_EVENTS = [
  'check.passed',
  'check.failed',
  'config.healthy',
  'config.unhealthy',
  'config.warning',
  'config.unknown',
  'config.deleted',
  'component.healthy',
  'component.unhealthy',
  'component.warning',
  'component.unknown',
] as const;

const ID_KEYS = ['id', 'check_id', 'component_id', 'config_id', 'config_analysis_id', 'analysis_id', 'evidence_id'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BATCH = 500;

interface EvidenceRow {
  id: string;
  type: string;
  script: string | null;
  done: boolean;
  last_error: string | null;
  linked: LinkedRow | null;
}

export interface EvaluationSummary {
  evaluated: number;
  changed: number;
  failed: number;
}

export interface DefinitionOfDoneSchedulerOptions {
  pool: pg.Pool;
  bus: EventBus;
  intervalMs?: number;
  /** Bus events arriving within this window are evaluated together. */
  debounceMs?: number;
  onError?: (error: unknown) => void;
}

const LINKED_SQL = `
  case e.type
    when 'check' then (select to_jsonb(c) - 'spec' from checks c where c.id = e.check_id and c.deleted_at is null)
    when 'topology' then (select to_jsonb(c) - 'properties' - 'summary' from components c
                           where c.id = e.component_id and c.deleted_at is null)
    when 'config' then (select to_jsonb(c) - 'config' - 'properties' from config_items c where c.id = e.config_id)
    when 'config_analysis' then (select to_jsonb(a) - 'analysis' from config_analysis a where a.id = e.config_analysis_id)
  end`;

/**
 * Sets `done` on every automatic definition-of-done evidence (definition_of_done, of type check, topology, config or
 * config_analysis) from its CEL script, or the type's default script, evaluated against the linked item. Runs on an
 * interval and soon after a bus event about a linked item. A script that fails at run time, or an item that is gone,
 * leaves `done` as it was and records the reason in properties.definition_of_done_error.
 */
/** Queue handlers that re-evaluate the evidences linked to the item an event names; a failed evaluation is retried. */
export function definitionOfDoneHandlers(scheduler: DefinitionOfDoneScheduler): Record<string, EventHandler> {
  const handler: EventHandler = async (event) => {
    const ids = idsOf(event.properties);
    if (ids.length > 0) await scheduler.evaluateLinkedTo(ids);
  };
  return Object.fromEntries(DEFINITION_OF_DONE_QUEUED_EVENTS.map((name) => [name, handler]));
}

function idsOf(payload: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  for (const key of ID_KEYS) {
    const value = payload[key];
    if (typeof value === 'string' && UUID.test(value)) ids.add(value);
  }
  return [...ids];
}

export class DefinitionOfDoneScheduler {
  private readonly pool: pg.Pool;
  private readonly bus: EventBus;
  private readonly intervalMs: number;
  private readonly debounceMs: number;
  private readonly onError: (error: unknown) => void;
  private interval: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private pendingIds = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  private unsubscribers: Array<() => void> = [];

  constructor(options: DefinitionOfDoneSchedulerOptions) {
    this.pool = options.pool;
    this.bus = options.bus;
    this.intervalMs = options.intervalMs ?? 60_000;
    this.debounceMs = options.debounceMs ?? 250;
    this.onError = options.onError ?? (() => undefined);
  }

  start(): void {
    if (this.interval !== null) return;
    this.interval = setInterval(() => void this.enqueue(() => this.evaluateAll()), this.intervalMs);
    this.interval.unref();
    for (const name of DEFINITION_OF_DONE_TRIGGERS) this.unsubscribers.push(this.bus.subscribe(name, (event) => this.handleBusEvent(event)));
    void this.enqueue(() => this.evaluateAll());
  }

  async stop(): Promise<void> {
    if (this.interval !== null) clearInterval(this.interval);
    if (this.debounce !== null) clearTimeout(this.debounce);
    this.interval = null;
    this.debounce = null;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
    await this.chain;
  }

  private handleBusEvent(event: BusEvent): void {
    for (const id of idsOf(event.payload)) this.pendingIds.add(id);
    if (this.pendingIds.size === 0 || this.debounce !== null) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      const ids = [...this.pendingIds];
      this.pendingIds = new Set();
      void this.enqueue(() => this.evaluateLinkedTo(ids));
    }, this.debounceMs);
    this.debounce.unref();
  }

  /** Runs evaluations one after another, so an interval run and an event run never race on the same rows. */
  private enqueue(work: () => Promise<EvaluationSummary>): Promise<void> {
    const next = this.chain.then(work).then(
      () => undefined,
      (error: unknown) => this.onError(error),
    );
    this.chain = next;
    return next;
  }

  async evaluateAll(now = new Date()): Promise<EvaluationSummary> {
    const summary: EvaluationSummary = { evaluated: 0, changed: 0, failed: 0 };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const result = await this.pool.query<EvidenceRow>(
        `select e.id, e.type, e.script, e.done, e.properties ->> 'definition_of_done_error' as last_error, ${LINKED_SQL} as linked
           from evidences e
          where e.definition_of_done and e.type in ('check', 'topology', 'config', 'config_analysis') and e.id > $1
          order by e.id
          limit ${BATCH}`,
        [after],
      );
      await this.apply(result.rows, now, summary);
      const last = result.rows.at(-1);
      if (last === undefined || result.rows.length < BATCH) break;
      after = last.id;
    }
    return summary;
  }

  /** Evaluates the evidences with one of these ids or linked to an item with one of them. */
  async evaluateLinkedTo(ids: readonly string[], now = new Date()): Promise<EvaluationSummary> {
    const summary: EvaluationSummary = { evaluated: 0, changed: 0, failed: 0 };
    const result = await this.pool.query<EvidenceRow>(
      `select e.id, e.type, e.script, e.done, e.properties ->> 'definition_of_done_error' as last_error, ${LINKED_SQL} as linked
         from evidences e
        where e.definition_of_done and e.type in ('check', 'topology', 'config', 'config_analysis')
          and (e.id = any ($1::uuid[]) or e.check_id = any ($1::uuid[]) or e.component_id = any ($1::uuid[])
               or e.config_id = any ($1::uuid[]) or e.config_analysis_id = any ($1::uuid[]))`,
      [ids],
    );
    await this.apply(result.rows, now, summary);
    return summary;
  }

  private async apply(rows: EvidenceRow[], now: Date, summary: EvaluationSummary): Promise<void> {
    for (const row of rows) {
      if (!isAutomaticDefinitionOfDoneType(row.type)) continue;
      summary.evaluated += 1;
      let done = row.done;
      let error: string | null = null;
      if (row.linked === null) {
        error = `The linked ${row.type === 'topology' ? 'component' : row.type.replace('_', ' ')} no longer exists`;
      } else {
        try {
          done = evaluateDefinitionOfDone(row.type, row.script, row.linked, now);
        } catch (cause) {
          error = cause instanceof Error ? (cause.message.split('\n')[0] ?? cause.message) : String(cause);
        }
      }
      if (error !== null) summary.failed += 1;
      if (done === row.done && error === row.last_error) continue;
      summary.changed += done === row.done ? 0 : 1;
      await this.pool.query(
        `update evidences
            set done = $2,
                properties = case when $3::text is null then properties - 'definition_of_done_error'
                                  else jsonb_set(properties, '{definition_of_done_error}', to_jsonb($3::text)) end
          where id = $1`,
        [row.id, done, error],
      );
    }
  }
}
