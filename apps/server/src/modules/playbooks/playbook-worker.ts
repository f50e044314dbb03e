import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import {
  PLAYBOOK_ACTION_DEFAULT_TIMEOUT,
  PLAYBOOK_ACTION_MAX_TIMEOUT,
  PLAYBOOK_MAX_DELAY,
  type PlaybookAction,
  type PlaybookActionRetry,
  type PlaybookActionType,
  type PlaybookSpec,
  type PlaybookTargetType,
} from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import type { EventBus } from '../../platform/event-bus';
import { EVENT_QUEUE_WAKE } from '../../platform/event-queue';
import { LeaseLoop } from '../../platform/lease-scheduler';
import { ACTION_RUNNERS, actionType } from './actions';
import { runWithOpenedSecrets } from './playbook-secrets';
import { openSecretParameters } from './secret-parameters';
import { durationMs, parsePlaybookSpec } from './spec';
import { loadTarget } from './selectors';
import { evaluateCondition, evaluateDelay, renderAction, renderSpecEnv } from './templating';
import { CatalogTraversal, catalogTraverseLoader } from './catalog-traverse';
import { scrubSecrets } from '../health';
import {
  loadPerson,
  PLAYBOOK_CANCELLED_ERROR,
  PLAYBOOK_RUN_CANCELLED_EVENT,
  PLAYBOOK_RUN_REQUESTED_EVENT,
  TARGET_LABELS,
  templateParameters,
  templateContext,
} from './run-store';
import {
  claimRuns,
  closeCancelledRun,
  finishRun,
  handBackRun,
  loadHeldRun,
  renewRunLease,
  sleepRun,
  type ClaimedRun,
  type EndedRun,
  type HeldRun,
  type Sleep,
} from './run-lease-store';
import {
  failRunningActions,
  insertRunAction,
  loadRunActions,
  markActionRunning,
  recordActionOutcome,
  type RecordedOutcome,
  type RunActionRow,
} from './run-action-store';
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

/** A held run with its secret parameters opened, and those values, which are scrubbed from what actions keep. */
type OpenedRun = HeldRun & { secrets: readonly string[] };

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

function positiveInteger(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** What a renewal says about the run: lost with the lease, cancelled by another process, or null to go on. */
function interruptionOf(status: string | null): Interrupted | null {
  if (status === null) return new Interrupted('lost');
  return status === 'cancelled' ? new Interrupted('cancelled') : null;
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

const FINAL_ACTION_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'skipped', 'cancelled']);

/** Where advancing a run left it. */
type Step = 'finished' | 'released' | 'interrupted';

/** Where a claimed run was left, or `errored`: the failure was reported and the lease left to expire. */
type Advanced = Step | 'errored';

/**
 * Runs playbook runs on leases (platform/lease-scheduler.ts LeaseLoop): a pass claims due runs, and runs whose worker
 * stopped renewing its lease (run-lease-store.ts claimRuns), so exactly one worker across all processes advances a
 * run. The run's actions then run in spec order, each step written as it happens and guarded by the lease, so a worker
 * that lost its run writes nothing more. The heartbeat renews the lease and notices a cancel made by another process.
 * A run taken over after a crash has its interrupted action failed with PLAYBOOK_CRASH_ERROR and goes on from the
 * next action; no action is ever run twice.
 */
export class PlaybookWorker {
  private readonly runners: Readonly<Record<PlaybookActionType, ActionRunner>>;
  private readonly leases: LeaseLoop<ClaimedRun, Advanced>;

  constructor(private readonly options: PlaybookWorkerOptions) {
    const { pool } = options;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.runners = options.runners ?? ACTION_RUNNERS;
    this.leases = new LeaseLoop({
      store: {
        claim: (limit, owner) => claimRuns(pool, limit, owner, leaseMs),
        renew: async (run, owner) => interruptionOf(await renewRunLease(pool, run.id, owner, leaseMs)),
      },
      run: (claimed, lease) => this.advanceClaimed(claimed, lease.signal),
      maxInFlight: options.maxInFlight ?? DEFAULT_WORKERS,
      renewEveryMs: Math.max(1, Math.floor(leaseMs / 3)),
      pollMs: options.pollMs ?? POLL_MS,
      // A run requested during a pass, or room left by a run that ended, is claimed at once rather than a poll later.
      passAgainOnWake: true,
      onRun: () => this.wake(),
      onError: options.onError,
    });
  }

  get owner(): string {
    return this.leases.owner;
  }

  start(): void {
    this.leases.start();
  }

  /**
   * Stops claiming and interrupts the runs under way: a running action is aborted and recorded failed with the crash
   * error, and each run is handed back as pending so the next worker goes on with its later actions.
   */
  async stop(): Promise<void> {
    await this.leases.stop(new Interrupted('stopping'));
  }

  /** Claims at once (a run was requested, or one of ours ended and left room); a wake during a pass starts another. */
  wake(): void {
    this.leases.wake();
  }

  /** Aborts the run's action when this worker holds it (a cancel made in this process). */
  cancel(runId: string): void {
    this.leases.abort(runId, new Interrupted('cancelled'));
  }

  /** Claims what there is room for and advances each claimed run as far as it goes now; resolves with their ids. */
  async runDue(): Promise<string[]> {
    return [...(await this.leases.runDue()).keys()];
  }

  /** Never rejects: a failure is reported and the lease left to expire, so another pass takes the run over. */
  private async advanceClaimed(claimed: ClaimedRun, signal: AbortSignal): Promise<Advanced> {
    try {
      const step = await this.advance(claimed, signal);
      if (step === 'interrupted') await this.settleInterrupted(claimed.id, signal);
      return step;
    } catch (error) {
      this.options.onError?.(error);
      return 'errored';
    }
  }

  /** A run stopped between steps: cancelled runs are closed, a stopping server hands the run back, a lost one is left alone. */
  private async settleInterrupted(runId: string, signal: AbortSignal): Promise<void> {
    const kind = signal.reason instanceof Interrupted ? signal.reason.kind : 'lost';
    if (kind === 'stopping') await handBackRun(this.options.pool, runId, this.owner);
    else if (kind === 'cancelled') await this.closeCancelled(runId);
  }

  private async advance(claimed: ClaimedRun, signal: AbortSignal): Promise<Step> {
    if (claimed.previous_status === 'cancelled') {
      await this.closeCancelled(claimed.id);
      return 'finished';
    }
    const { pool } = this.options;
    if (claimed.taken_over) await failRunningActions(pool, claimed.id, this.owner, PLAYBOOK_CRASH_ERROR);
    const run = await loadHeldRun(pool, claimed.id, this.owner);
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
    let opened: OpenedRun;
    try {
      const secretParameters = openSecretParameters(this.options.secretKey, run.playbook_id, spec.parameters ?? [], run.parameters);
      opened = { ...run, parameters: secretParameters.values, secrets: secretParameters.secrets };
    } catch (error) {
      return this.finish(run, `A secret parameter could not be opened: ${messageOf(error)}`);
    }
    const resolved = await templateParameters(pool, spec.parameters ?? [], opened.parameters);
    if ('gone' in resolved) {
      return this.finish(run, `The ${TARGET_LABELS[resolved.gone.type]} chosen for the parameter '${resolved.gone.name}' no longer exists`);
    }
    const rows = await loadRunActions(pool, run.id);
    const context = templateContext({
      playbook: { id: run.playbook_id, name: run.playbook_name, title: run.playbook_title },
      runId: run.id,
      params: resolved.params,
      target,
      user: await loadPerson(pool, run.created_by),
      actions: Object.fromEntries(rows.filter((row) => FINAL_ACTION_STATUSES.has(row.status)).map((row) => [row.name, stateOf(row)])),
      request: run.request,
    });
    context.traversal = new CatalogTraversal(catalogTraverseLoader(pool, run.created_by));
    if (spec.env !== undefined && spec.env.length > 0) {
      try {
        context.env = await renderSpecEnv(spec.env, context);
      } catch (error) {
        // A value left empty would run the actions with a different meaning: the run fails, naming the entry.
        return this.finish(run, scrubSecrets(`The run's env could not be rendered: ${messageOf(error)}`, opened.secrets));
      }
    }
    for (const [position, action] of spec.actions.entries()) {
      if (signal.aborted) return 'interrupted';
      const existing = rows.find((row) => row.position === position);
      if (existing !== undefined && FINAL_ACTION_STATUSES.has(existing.status)) continue;
      const step = await this.step(opened, target, action, position, existing ?? null, context, signal);
      if (step !== null) return step;
    }
    return this.finish(run, null);
  }

  /** One action of the run; null when the run goes on to the next. */
  private async step(
    run: OpenedRun,
    target: PlaybookTarget | null,
    action: PlaybookAction,
    position: number,
    existing: RunActionRow | null,
    context: TemplateContext,
    signal: AbortSignal,
  ): Promise<Step | null> {
    const { pool } = this.options;
    let actionId: string;
    if (existing !== null && existing.status === 'sleeping') {
      if (!existing.due) return this.sleep(run, { actionId: existing.id });
      if (!(await markActionRunning(pool, existing.id, this.owner))) return 'interrupted';
      actionId = existing.id;
    } else {
      let runs: boolean;
      try {
        runs = evaluateCondition(action.if, context);
      } catch (error) {
        return this.endUnrun(run, context, action.name, position, 'failed', messageOf(error));
      }
      if (!runs) return this.endUnrun(run, context, action.name, position, 'skipped', null);
      let delayMs: number;
      try {
        delayMs = action.delay === undefined ? 0 : evaluateDelay(action.delay, context);
        if (delayMs > durationMs(PLAYBOOK_MAX_DELAY)) throw new Error(`The delay '${action.delay ?? ''}' is longer than the ${PLAYBOOK_MAX_DELAY} allowed`);
      } catch (error) {
        return this.endUnrun(run, context, action.name, position, 'failed', messageOf(error));
      }
      if (delayMs > 0) return this.sleep(run, { name: action.name, position, delayMs });
      const inserted = await insertRunAction(pool, this.owner, { runId: run.id, name: action.name, position, status: 'running', error: null });
      if (inserted === null) return 'interrupted';
      actionId = inserted;
    }
    const outcome = await this.runWithRetries(run, target, action, actionId, context, signal);
    if (outcome === null) return 'interrupted';
    const stored = await recordActionOutcome(pool, actionId, this.owner, outcome);
    if (!stored || signal.aborted) return 'interrupted';
    context.actions[action.name] = { status: outcome.status, error: outcome.error ?? null, result: outcome.result };
    return null;
  }

  /**
   * Runs the action, and again after a failure while its `retry` allows, waiting Mission Control's backoff between
   * attempts (the lease is renewed meanwhile). Without `retry` it runs once: actions may not be idempotent. The
   * outcome kept is the last attempt's, its error saying how many attempts were made.
   */
  private async runWithRetries(
    run: OpenedRun,
    target: PlaybookTarget | null,
    action: PlaybookAction,
    actionId: string,
    context: TemplateContext,
    signal: AbortSignal,
  ): Promise<RecordedOutcome | null> {
    let outcome = await this.runAction(run, target, action, actionId, context, signal);
    const retry = action.retry;
    if (retry === undefined) return outcome;
    let attempt = 0;
    while (outcome !== null && outcome.status === 'failed' && attempt < retry.limit && !signal.aborted) {
      if (!(await waitFor(retryWaitMs(retry, attempt), signal))) return outcome;
      attempt += 1;
      outcome = await this.runAction(run, target, action, actionId, context, signal);
    }
    if (outcome === null || attempt === 0 || outcome.status !== 'failed') return outcome;
    return { ...outcome, error: `${outcome.error ?? 'failed'} (after ${attempt + 1} attempts)` };
  }

  /** A delayed action: the run is released until it is due; 'interrupted' when this worker no longer held it. */
  private async sleep(run: HeldRun, sleep: Sleep): Promise<Step> {
    return (await sleepRun(this.options.pool, run.id, this.owner, sleep)) ? 'released' : 'interrupted';
  }

  /**
   * An action that ends without running (skipped, or failed by its condition or delay): stored, and added to what later
   * ones see; 'interrupted' when it was not stored.
   */
  private async endUnrun(
    run: HeldRun,
    context: TemplateContext,
    name: string,
    position: number,
    status: 'skipped' | 'failed',
    error: string | null,
  ): Promise<Step | null> {
    const id = await insertRunAction(this.options.pool, this.owner, { runId: run.id, name, position, status, error });
    if (id === null) return 'interrupted';
    context.actions[name] = { status, error, result: null };
    return null;
  }

  /**
   * Runs one rendered action within its timeout; null when the run was lost or the server is stopping, after the
   * action was recorded as the interruption leaves it.
   */
  private async runAction(
    run: OpenedRun,
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
      outcome = await runWithOpenedSecrets(this.options.secretKey, run.playbook_id, rendered, run.secrets, (opened) =>
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
      await recordActionOutcome(this.options.pool, actionId, this.owner, { status: 'failed', result: outcome.result, error: PLAYBOOK_CRASH_ERROR });
    }
    return null;
  }

  /** Ends a run: completed when no action failed, failed when one did or `error` says why the run itself failed. */
  private async finish(run: HeldRun, error: string | null): Promise<Step> {
    // Null when cancelled since the last step: closed as cancelled instead.
    if (!this.ended(await finishRun(this.options.pool, run.id, this.owner, error))) await this.closeCancelled(run.id);
    return 'finished';
  }

  /** A cancelled run this worker holds: what had not finished is cancelled, and the run's end recorded. */
  private async closeCancelled(runId: string): Promise<void> {
    this.ended(await closeCancelledRun(this.options.pool, runId, this.owner));
  }

  /** After a run's end was committed: the event consumers of this process wake for its event, and /metrics counts it. */
  private ended(ended: EndedRun | null): boolean {
    if (ended === null) return false;
    this.options.bus?.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
    if (ended.seconds !== null) this.options.onRunEnded?.(ended.status, Math.max(0, ended.seconds));
    return true;
  }
}

/** Mission Control's backoff: duration × multiplier^attempt, varied by ± jitter per cent, at most PLAYBOOK_MAX_DELAY. */
export function retryWaitMs(retry: PlaybookActionRetry, attempt: number, random: () => number = Math.random): number {
  const base = timeoutOf(retry.duration) * Math.pow(retry.exponent?.multiplier ?? 1, attempt);
  const jitter = 1 + (random() * 2 - 1) * (retry.jitter ?? 0) * 0.01;
  return Math.min(Math.max(0, base * jitter), durationMs(PLAYBOOK_MAX_DELAY));
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function waitFor(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A stored spec that predates a rule may hold a timeout that no longer parses: the default then applies. */
function timeoutOf(text: string): number {
  try {
    return durationMs(text);
  } catch {
    return durationMs(PLAYBOOK_ACTION_DEFAULT_TIMEOUT);
  }
}

function targetRef(run: HeldRun): { type: PlaybookTargetType; id: string } | null {
  if (run.config_id !== null) return { type: 'config', id: run.config_id };
  if (run.component_id !== null) return { type: 'component', id: run.component_id };
  if (run.check_id !== null) return { type: 'check', id: run.check_id };
  return null;
}

function stateOf(row: RunActionRow): ActionState {
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
