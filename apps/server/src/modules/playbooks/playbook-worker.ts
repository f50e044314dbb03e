import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import {
  PLAYBOOK_ACTION_DEFAULT_TIMEOUT,
  PLAYBOOK_ACTION_MAX_TIMEOUT,
  type PlaybookAction,
  type PlaybookActionResult,
  type PlaybookActionType,
  type PlaybookSpec,
  type PlaybookTargetType,
} from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import type { EventBus } from '../../platform/event-bus';
import { EVENT_QUEUE_WAKE } from '../../platform/event-queue';
import { leaseOwner } from '../../platform/poll-loop';
import { ACTION_RUNNERS, actionType } from './actions';
import { runWithOpenedSecrets } from './playbook-secrets';
import { durationMs, parsePlaybookSpec } from './spec';
import { loadTarget } from './selectors';
import { evaluateCondition, renderAction } from './templating';
import {
  cancelUnfinishedActions,
  loadPerson,
  PLAYBOOK_CANCELLED_ERROR,
  PLAYBOOK_RUN_CANCELLED_EVENT,
  PLAYBOOK_RUN_REQUESTED_EVENT,
  recordRunEnd,
  TARGET_LABELS,
  templateContext,
} from './run-store';
import type { ActionOutcome, ActionRunner, ActionState, PlaybookTarget, TemplateContext } from './types';

/** The error of an action that was running when its server stopped or crashed (it is never run again: it may not be idempotent). */
export const PLAYBOOK_CRASH_ERROR = 'The server stopped while this action was running; it was not retried.';

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_WORKERS = 4;
const POLL_MS = 1000;
/** After an abort, how long a runner has to hand back what it captured before the action is recorded without it. */
const ABORT_GRACE_MS = 5000;
/** A run taken over this many times after its worker vanished mid-step is failed rather than taken up again. */
const MAX_TAKEOVERS = 5;

/** Why a run's signal was aborted: each leaves the run in another state. */
type Interruption = 'stopping' | 'cancelled' | 'lost';

class Interrupted extends Error {
  constructor(readonly kind: Interruption) {
    super(kind === 'stopping' ? 'the server is stopping' : kind === 'cancelled' ? PLAYBOOK_CANCELLED_ERROR : 'another worker took this run over');
  }
}

class ActionTimedOut extends Error {
  constructor(readonly timeout: string) {
    super(`The action timed out after ${timeout}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** jsonb and text refuse NUL, which a script's output may hold. */
function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutNul(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutNul(item)])) as T;
  }
  return value;
}

function positiveInteger(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

export interface PlaybookWorkerOptions {
  pool: pg.Pool;
  secretKey: Buffer;
  /** Told when a run's end enqueued its event; the event consumers of this process then pick it up at once. */
  bus?: EventBus;
  /** A claimed run is held this long without a heartbeat; renewed every third of it. */
  leaseMs?: number;
  /** Runs at once in this process. */
  maxInFlight?: number;
  pollMs?: number;
  /** The action runners (actions/index.ts); tests give their own. */
  runners?: Readonly<Record<PlaybookActionType, ActionRunner>>;
  onError?: (error: unknown) => void;
  /** Told when this worker ended a run: its final status and its seconds from start to end (for /metrics). */
  onRunEnded?: (status: string, seconds: number) => void;
}

interface EndedRun {
  status: string;
  seconds: number | null;
}

/** What the statements ending a run return, for onRunEnded. */
const ENDED_RUN_RETURNING = `returning status, extract(epoch from (end_time - coalesce(start_time, created_at)))::float8 as seconds`;

interface ClaimedRun {
  id: string;
  previous_status: 'pending' | 'scheduled' | 'running' | 'cancelled';
  /** Its last worker's lease expired while it held the run. */
  taken_over: boolean;
}

interface RunRow {
  id: string;
  playbook_id: string;
  playbook_name: string;
  playbook_title: string | null;
  spec: unknown;
  parameters: Record<string, string>;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  created_by: string | null;
  attempts: number;
}

interface ActionRow {
  id: string;
  position: number;
  name: string;
  status: string;
  error: string | null;
  result: PlaybookActionResult | null;
  due: boolean;
}

const FINAL_ACTION_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'skipped', 'cancelled']);

/** An action's end as stored: a runner's outcome, or cancelled. */
interface RecordedOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  result: PlaybookActionResult;
  error?: string;
}

/** Where advancing a run left it. */
type Step = 'finished' | 'released' | 'interrupted';

/**
 * Runs playbook runs. A pass claims due runs, and runs whose worker stopped renewing its lease, with one UPDATE over a
 * FOR UPDATE SKIP LOCKED pick (never a transaction held while an action runs: PGlite has one backend), so exactly one
 * worker across all processes advances a run. The run's actions then run in spec order, each step written as it
 * happens and guarded by the lease, so a worker that lost its run writes nothing more. A heartbeat renews the lease
 * and notices a cancel made by another process. A run taken over after a crash has its interrupted action failed with
 * PLAYBOOK_CRASH_ERROR and goes on from the next action; no action is ever run twice.
 */
export class PlaybookWorker {
  readonly owner = leaseOwner();
  private readonly leaseMs: number;
  private readonly maxInFlight: number;
  private readonly pollMs: number;
  private readonly runners: Readonly<Record<PlaybookActionType, ActionRunner>>;
  private readonly inflight = new Map<string, AbortController>();
  private readonly work = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private passing: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: PlaybookWorkerOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.maxInFlight = options.maxInFlight ?? DEFAULT_WORKERS;
    this.pollMs = options.pollMs ?? POLL_MS;
    this.runners = options.runners ?? ACTION_RUNNERS;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /**
   * Stops claiming and interrupts the runs under way: a running action is aborted and recorded failed with the crash
   * error, and each run is handed back as pending so the next worker goes on with its later actions.
   */
  async stop(): Promise<void> {
    this.started = false;
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const controller of this.inflight.values()) controller.abort(new Interrupted('stopping'));
    await this.passing;
    await Promise.allSettled([...this.work]);
  }

  /** Claims at once (a run was requested, or one of ours ended and left room); a wake during a pass starts another. */
  wake(): void {
    if (!this.started) return;
    if (this.passing !== null) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Aborts the run's action when this worker holds it (a cancel made in this process). */
  cancel(runId: string): void {
    this.inflight.get(runId)?.abort(new Interrupted('cancelled'));
  }

  /** Claims what there is room for and advances each claimed run as far as it goes now; resolves with their ids. */
  async runDue(): Promise<string[]> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((run) => this.advanceClaimed(run)));
    return claimed.map((run) => run.id);
  }

  private schedule(delay: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.passing = this.pass()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.passing = null;
          if (!this.started) return;
          const next = this.again ? 0 : this.pollMs;
          this.again = false;
          this.schedule(next);
        });
    }, delay);
  }

  private async pass(): Promise<void> {
    for (const run of await this.claim()) {
      const work = this.advanceClaimed(run).finally(() => {
        this.work.delete(work);
        this.wake();
      });
      this.work.add(work);
    }
  }

  private async claim(): Promise<ClaimedRun[]> {
    const room = this.maxInFlight - this.inflight.size;
    if (room <= 0) return [];
    const claimed = await this.options.pool.query<ClaimedRun>(
      `with picked as (
         select id, status, status in ('running', 'cancelled') as taken_over
           from playbook_runs
          where (status in ('pending', 'scheduled') and scheduled_time <= now())
             or (status = 'running' and (locked_until is null or locked_until < now()))
             or (status = 'cancelled' and locked_by is not null and locked_until < now())
          order by scheduled_time
          limit $1
          for update skip locked
       )
       update playbook_runs r
          set status = case when picked.status = 'cancelled' then 'cancelled' else 'running' end,
              start_time = coalesce(r.start_time, now()),
              locked_by = $2,
              locked_until = now() + make_interval(secs => $3::double precision / 1000),
              attempts = r.attempts + case when picked.taken_over then 1 else 0 end
         from picked
        where r.id = picked.id
       returning r.id, picked.status as previous_status, picked.taken_over`,
      [room, this.owner, this.leaseMs],
    );
    // Counted now, so the next pass leaves room for these even before they start.
    for (const run of claimed.rows) {
      const controller = new AbortController();
      // Claimed while stop ran: handed straight back.
      if (this.stopped) controller.abort(new Interrupted('stopping'));
      this.inflight.set(run.id, controller);
    }
    return claimed.rows;
  }

  /** Never rejects: a failure is reported and the lease left to expire, so another pass takes the run over. */
  private async advanceClaimed(claimed: ClaimedRun): Promise<void> {
    const controller = this.inflight.get(claimed.id) ?? new AbortController();
    this.inflight.set(claimed.id, controller);
    const heartbeat = setInterval(() => {
      this.renew(claimed.id).then(
        (status) => {
          if (status === null) controller.abort(new Interrupted('lost'));
          else if (status === 'cancelled') controller.abort(new Interrupted('cancelled'));
        },
        (error: unknown) => this.options.onError?.(error),
      );
    }, Math.max(1, Math.floor(this.leaseMs / 3)));
    try {
      const step = await this.advance(claimed, controller.signal);
      if (step === 'interrupted') await this.settleInterrupted(claimed.id, controller.signal);
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      clearInterval(heartbeat);
      this.inflight.delete(claimed.id);
    }
  }

  private async renew(runId: string): Promise<string | null> {
    const renewed = await this.options.pool.query<{ status: string }>(
      `update playbook_runs set locked_until = now() + make_interval(secs => $3::double precision / 1000)
        where id = $1 and locked_by = $2 returning status`,
      [runId, this.owner, this.leaseMs],
    );
    return renewed.rows[0]?.status ?? null;
  }

  /** A run stopped between steps: cancelled runs are closed, a stopping server hands the run back, a lost one is left alone. */
  private async settleInterrupted(runId: string, signal: AbortSignal): Promise<void> {
    const kind = signal.reason instanceof Interrupted ? signal.reason.kind : 'lost';
    if (kind === 'stopping') await this.handBack(runId);
    else if (kind === 'cancelled') await this.closeCancelled(runId);
  }

  private async advance(claimed: ClaimedRun, signal: AbortSignal): Promise<Step> {
    if (claimed.previous_status === 'cancelled') {
      await this.closeCancelled(claimed.id);
      return 'finished';
    }
    const { pool } = this.options;
    if (claimed.taken_over) {
      await pool.query(
        `update playbook_run_actions a set status = 'failed', error = $3, end_time = now()
          where a.playbook_run_id = $1 and a.status = 'running'
            and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $2)`,
        [claimed.id, this.owner, PLAYBOOK_CRASH_ERROR],
      );
    }
    const run = await this.loadRun(claimed.id);
    if (run === null) return 'finished';
    if (run.attempts >= MAX_TAKEOVERS) {
      return this.finish(run, `The run was taken over ${run.attempts} times after its server stopped; it was not taken up again`);
    }
    let spec: PlaybookSpec;
    try {
      spec = parsePlaybookSpec(run.spec);
    } catch (error) {
      return this.finish(run, `The playbook spec is not valid: ${messageOf(error)}`);
    }
    const ref = targetRef(run);
    const target = ref === null ? null : await loadTarget(pool, ref.type, ref.id);
    if (ref !== null && target === null) return this.finish(run, `The ${TARGET_LABELS[ref.type]} this run targets no longer exists`);
    const rows = await this.loadActions(run.id);
    const context = templateContext({
      playbook: { id: run.playbook_id, name: run.playbook_name, title: run.playbook_title },
      runId: run.id,
      params: run.parameters,
      target,
      user: await loadPerson(pool, run.created_by),
      actions: Object.fromEntries(rows.filter((row) => FINAL_ACTION_STATUSES.has(row.status)).map((row) => [row.name, stateOf(row)])),
    });
    for (const [position, action] of spec.actions.entries()) {
      if (signal.aborted) return 'interrupted';
      const existing = rows.find((row) => row.position === position);
      if (existing !== undefined && FINAL_ACTION_STATUSES.has(existing.status)) continue;
      const step = await this.step(run, target, action, position, existing ?? null, context, signal);
      if (step !== null) return step;
    }
    return this.finish(run, null);
  }

  /** One action of the run; null when the run goes on to the next. */
  private async step(
    run: RunRow,
    target: PlaybookTarget | null,
    action: PlaybookAction,
    position: number,
    existing: ActionRow | null,
    context: TemplateContext,
    signal: AbortSignal,
  ): Promise<Step | null> {
    let actionId: string;
    if (existing !== null && existing.status === 'sleeping') {
      if (!existing.due) return (await this.sleep(run.id, null, existing.id)) ? 'released' : 'interrupted';
      if (!(await this.markRunning(existing.id))) return 'interrupted';
      actionId = existing.id;
    } else {
      let runs: boolean;
      try {
        runs = evaluateCondition(action.if, context);
      } catch (error) {
        return this.record(context, action.name, await this.insertAction(run.id, action.name, position, 'failed', messageOf(error)), 'failed', messageOf(error));
      }
      if (!runs) return this.record(context, action.name, await this.insertAction(run.id, action.name, position, 'skipped', null), 'skipped', null);
      let delayMs: number;
      try {
        delayMs = action.delay === undefined ? 0 : durationMs(action.delay);
      } catch (error) {
        return this.record(context, action.name, await this.insertAction(run.id, action.name, position, 'failed', messageOf(error)), 'failed', messageOf(error));
      }
      if (delayMs > 0) return (await this.sleep(run.id, { name: action.name, position, delayMs }, null)) ? 'released' : 'interrupted';
      const inserted = await this.insertAction(run.id, action.name, position, 'running', null);
      if (inserted === null) return 'interrupted';
      actionId = inserted;
    }
    const outcome = await this.runAction(run, target, action, actionId, context, signal);
    if (outcome === null) return 'interrupted';
    const stored = await this.options.pool.query(
      `update playbook_run_actions a set status = $2, result = $3, error = $4, end_time = now()
        where a.id = $1 and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $5)`,
      [actionId, outcome.status, JSON.stringify(withoutNul(outcome.result)), outcome.error === undefined ? null : withoutNul(outcome.error), this.owner],
    );
    if (stored.rowCount === 0 || signal.aborted) return 'interrupted';
    context.actions[action.name] = { status: outcome.status, error: outcome.error ?? null, result: outcome.result };
    return null;
  }

  /** Adds a finished action (skipped, or failed before it ran) to what later ones see; 'interrupted' when it was not stored. */
  private record(context: TemplateContext, name: string, id: string | null, status: string, error: string | null): Step | null {
    if (id === null) return 'interrupted';
    context.actions[name] = { status, error, result: null };
    return null;
  }

  /**
   * Runs one rendered action within its timeout; null when the run was lost or the server is stopping, after the
   * action was recorded as the interruption leaves it.
   */
  private async runAction(
    run: RunRow,
    target: PlaybookTarget | null,
    action: PlaybookAction,
    actionId: string,
    context: TemplateContext,
    signal: AbortSignal,
  ): Promise<RecordedOutcome | null> {
    const timeoutText = action.timeout ?? PLAYBOOK_ACTION_DEFAULT_TIMEOUT;
    const timeoutMs = Math.min(timeoutOf(timeoutText), durationMs(PLAYBOOK_ACTION_MAX_TIMEOUT));
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    const timer = setTimeout(() => controller.abort(new ActionTimedOut(timeoutText)), timeoutMs);
    let outcome: ActionOutcome;
    try {
      const rendered = await renderAction(action, context);
      const runner = this.runners[actionType(rendered)];
      outcome = await runWithOpenedSecrets(this.options.secretKey, run.playbook_id, rendered, (opened) =>
        settle(
          runner(opened, {
            pool: this.options.pool,
            secretKey: this.options.secretKey,
            runId: run.id,
            actionId,
            signal: controller.signal,
            timeoutMs,
            params: run.parameters,
            target,
          }),
          controller.signal,
        ),
      );
    } catch (error) {
      outcome = { status: 'failed', result: {}, error: messageOf(error) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    }
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : null;
    if (reason instanceof ActionTimedOut) return { status: 'failed', result: outcome.result, error: reason.message };
    if (!(reason instanceof Interrupted)) return outcome;
    if (reason.kind === 'cancelled') return { status: 'cancelled', result: outcome.result, error: PLAYBOOK_CANCELLED_ERROR };
    if (reason.kind === 'stopping') {
      await this.options.pool.query(
        `update playbook_run_actions a set status = 'failed', result = $2, error = $3, end_time = now()
          where a.id = $1 and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $4)`,
        [actionId, JSON.stringify(withoutNul(outcome.result)), PLAYBOOK_CRASH_ERROR, this.owner],
      );
    }
    return null;
  }

  private async loadRun(runId: string): Promise<RunRow | null> {
    const found = await this.options.pool.query<RunRow>(
      `select r.id, r.playbook_id, p.name as playbook_name, p.title as playbook_title, coalesce(r.spec, p.spec) as spec,
              r.parameters, r.config_id, r.component_id, r.check_id, r.created_by, r.attempts
         from playbook_runs r join playbooks p on p.id = r.playbook_id
        where r.id = $1 and r.locked_by = $2 and r.status = 'running'`,
      [runId, this.owner],
    );
    return found.rows[0] ?? null;
  }

  private async loadActions(runId: string): Promise<ActionRow[]> {
    const found = await this.options.pool.query<ActionRow>(
      `select id, position, name, status, error, result, scheduled_time <= now() as due
         from playbook_run_actions where playbook_run_id = $1 order by position`,
      [runId],
    );
    return found.rows;
  }

  /** Creates the action's row while this worker still holds the run; null when it does not (cancelled or lost). */
  private async insertAction(runId: string, name: string, position: number, status: 'running' | 'skipped' | 'failed', error: string | null): Promise<string | null> {
    const inserted = await this.options.pool.query<{ id: string }>(
      `insert into playbook_run_actions (playbook_run_id, name, position, status, start_time, end_time, error)
       select $1, $2, $3, $4::text, now(), case when $4::text = 'running' then null else now() end, $5
        where exists (select 1 from playbook_runs where id = $1 and locked_by = $6 and status = 'running')
       returning id`,
      [runId, name, position, status, error, this.owner],
    );
    return inserted.rows[0]?.id ?? null;
  }

  private async markRunning(actionId: string): Promise<boolean> {
    const updated = await this.options.pool.query(
      `update playbook_run_actions a set status = 'running', start_time = now()
        where a.id = $1 and exists (select 1 from playbook_runs r where r.id = a.playbook_run_id and r.locked_by = $2 and r.status = 'running')`,
      [actionId, this.owner],
    );
    return (updated.rowCount ?? 0) > 0;
  }

  /**
   * A delayed action: its row sleeps until it is due and the run is handed back as `scheduled` for then, so no worker
   * holds it while it waits. `fresh` creates the row; otherwise the existing sleeping row keeps its time.
   */
  private async sleep(runId: string, fresh: { name: string; position: number; delayMs: number } | null, sleepingId: string | null): Promise<boolean> {
    const client = await this.options.pool.connect();
    try {
      await client.query('begin');
      const held = await client.query(`select 1 from playbook_runs where id = $1 and locked_by = $2 and status = 'running' for update`, [runId, this.owner]);
      if (held.rowCount === 0) {
        await client.query('rollback');
        return false;
      }
      const due = await client.query<{ scheduled_time: string }>(
        fresh === null
          ? `select scheduled_time from playbook_run_actions where id = $1`
          : `insert into playbook_run_actions (playbook_run_id, name, position, status, scheduled_time)
             values ($1, $2, $3, 'sleeping', now() + make_interval(secs => $4::double precision / 1000)) returning scheduled_time`,
        fresh === null ? [sleepingId] : [runId, fresh.name, fresh.position, fresh.delayMs],
      );
      await client.query(
        `update playbook_runs set status = 'scheduled', scheduled_time = $2, locked_by = null, locked_until = null where id = $1`,
        [runId, due.rows[0]?.scheduled_time],
      );
      await client.query('commit');
      return true;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Hands a run back as pending (the server is stopping) so the next worker goes on with it. */
  private async handBack(runId: string): Promise<void> {
    await this.options.pool.query(
      `update playbook_runs set status = 'pending', locked_by = null, locked_until = null
        where id = $1 and locked_by = $2 and status = 'running'`,
      [runId, this.owner],
    );
  }

  /** Ends a run: completed when no action failed, failed when one did or `error` says why the run itself failed. */
  private async finish(run: RunRow, error: string | null): Promise<Step> {
    const ended = await this.end(run.id, async (client) => {
      const updated = await client.query<EndedRun>(
        `update playbook_runs r
            set status = case when $3::text is not null
                                or exists (select 1 from playbook_run_actions a where a.playbook_run_id = r.id and a.status = 'failed')
                              then 'failed' else 'completed' end,
                error = $3, end_time = now(), locked_by = null, locked_until = null
          where r.id = $1 and r.locked_by = $2 and r.status = 'running'
         ${ENDED_RUN_RETURNING}`,
        [run.id, this.owner, error],
      );
      return updated.rows[0] ?? null;
    });
    if (ended) return 'finished';
    // Cancelled since the last step: close it as cancelled instead.
    await this.closeCancelled(run.id);
    return 'finished';
  }

  /** A cancelled run this worker holds: what had not finished is cancelled, and the run's end recorded. */
  private async closeCancelled(runId: string): Promise<void> {
    await this.end(runId, async (client) => {
      const updated = await client.query<EndedRun>(
        `update playbook_runs set locked_by = null, locked_until = null, end_time = coalesce(end_time, now())
          where id = $1 and locked_by = $2 and status = 'cancelled'
         ${ENDED_RUN_RETURNING}`,
        [runId, this.owner],
      );
      const ended = updated.rows[0];
      if (ended === undefined) return null;
      await cancelUnfinishedActions(client, runId);
      return ended;
    });
  }

  /** In one transaction: `close` moves the run to its final state (null when this worker no longer holds it), then its end is recorded. */
  private async end(runId: string, close: (client: pg.PoolClient) => Promise<EndedRun | null>): Promise<boolean> {
    const client = await this.options.pool.connect();
    let ended: EndedRun | null;
    try {
      await client.query('begin');
      ended = await close(client);
      if (ended === null) {
        await client.query('rollback');
        return false;
      }
      await recordRunEnd(client, runId);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    this.options.bus?.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
    if (ended.seconds !== null) this.options.onRunEnded?.(ended.status, Math.max(0, ended.seconds));
    return true;
  }
}

/** A stored spec that predates a rule may hold a timeout that no longer parses: the default then applies. */
function timeoutOf(text: string): number {
  try {
    return durationMs(text);
  } catch {
    return durationMs(PLAYBOOK_ACTION_DEFAULT_TIMEOUT);
  }
}

function targetRef(run: RunRow): { type: PlaybookTargetType; id: string } | null {
  if (run.config_id !== null) return { type: 'config', id: run.config_id };
  if (run.component_id !== null) return { type: 'component', id: run.component_id };
  if (run.check_id !== null) return { type: 'check', id: run.check_id };
  return null;
}

function stateOf(row: ActionRow): ActionState {
  return { status: row.status, error: row.error, result: row.result };
}

/**
 * The runner's outcome; once the signal is aborted the runner has ABORT_GRACE_MS to hand back what it captured, after
 * which the action is recorded without it (a runner that ignores its signal cannot hold the run).
 */
function settle(work: Promise<ActionOutcome>, signal: AbortSignal): Promise<ActionOutcome> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = (): void => {
      timer = setTimeout(() => resolve({ status: 'failed', result: {}, error: 'The action did not stop when asked to' }), ABORT_GRACE_MS);
    };
    if (signal.aborted) giveUp();
    else signal.addEventListener('abort', giveUp, { once: true });
    work
      .then(resolve, (error: unknown) => resolve({ status: 'failed', result: {}, error: messageOf(error) }))
      .finally(() => {
        clearTimeout(timer);
        signal.removeEventListener('abort', giveUp);
      });
  });
}

/**
 * The workers of this process (outside the api role): OPSDECK_PLAYBOOK_WORKERS runs at once (default 4), leases of
 * OPSDECK_PLAYBOOK_LEASE_MS (default 30 s). A requested run wakes them at once; a cancel made here aborts at once.
 */
export function startPlaybookWorkers(scoped: FastifyInstance, context: AppContext): void {
  const worker = new PlaybookWorker({
    pool: context.db.pool,
    secretKey: context.config.secretKey,
    bus: context.bus,
    leaseMs: positiveInteger(process.env.OPSDECK_PLAYBOOK_LEASE_MS, DEFAULT_LEASE_MS),
    maxInFlight: positiveInteger(process.env.OPSDECK_PLAYBOOK_WORKERS, DEFAULT_WORKERS),
    onError: (error) => scoped.log.error({ err: error }, 'playbook worker'),
    onRunEnded: (status, seconds) => context.metrics.playbookRunDuration.observe({ status }, seconds),
  });
  const unsubscribe = [
    context.bus.subscribe(PLAYBOOK_RUN_REQUESTED_EVENT, () => worker.wake()),
    context.bus.subscribe(PLAYBOOK_RUN_CANCELLED_EVENT, (event) => {
      if (typeof event.payload.id === 'string') worker.cancel(event.payload.id);
    }),
  ];
  scoped.addHook('onReady', async () => worker.start());
  scoped.addHook('preClose', async () => {
    for (const stop of unsubscribe) stop();
    await worker.stop();
  });
}
