import { setMaxListeners } from 'node:events';
import os from 'node:os';
import type pg from 'pg';
import type { EventBus } from '../../platform/event-bus';
import type { MetricSample } from '../../platform/check-metrics';
import { leaseOwner, PollLoop } from '../../platform/poll-loop';
import { DEFAULT_LEASE_SECONDS } from '../../platform/lease-scheduler';
import { openCheckSpec, SpecSecretError } from './canary-secrets';
import { runCheck, type CheckResult } from './checkers/run-check';
import type { TransformedCheck } from './check-expressions';
import { isExecCheckType } from './exec-permission';
import { effectiveSchedule, nextRuntime, parseSchedule, DEFAULT_SCHEDULE } from './schedule';
import { scrubSecrets, SecretCollector } from './scrub-secrets';
import { checkRelationshipsSchema } from '@opsdeck/shared';
import { formCheckRelationships, type RelatedCheck } from './check-relationships';
import { connectionOpener, withReferencesResolved } from './run-unsaved-check';
import { loadLastResult, readsLastResult, type LastResult } from './last-result';
import { CanarySpecError, JUNIT_CHECK_TYPE, junitReportChecks, type CheckDefinition } from './canary-spec';
import { lastResultOfTest, runJunitReport } from './junit-report';
import { StatusWriter } from './status-writer';
import { scrubArtifact, type CollectedArtifact } from './exec-artifacts';

export interface SchedulerOptions {
  pool: pg.Pool;
  secretKey: Buffer;
  bus: EventBus;
  /** Checks of the bounded types (exec, SQL, kubernetes, folder, ping…) running at once in this process. */
  concurrency?: number;
  /**
   * Checks of the network types (NETWORK_CHECK_TYPES) running at once in this process: each waits on a socket and
   * costs next to nothing while it does, so many run at once.
   */
  networkConcurrency?: number;
  pollMs?: number;
  /**
   * How long a claimed check stays this worker's before another may take it over, renewed every quarter of it while
   * the check runs (OPSDECK_LEASE_SECONDS); DEFAULT_LEASE_SECONDS when not given.
   */
  leaseSeconds?: number;
  onError?: (error: unknown) => void;
  /** Told of each run this scheduler recorded, with the check's type (the plugin counts them for /metrics). */
  onRecorded?: (type: string, run: RecordedRun) => void;
  /**
   * Exports what a run's `metrics` gave (the plugin's CheckMetricRegistry); returns a problem per sample not exported,
   * which fails the run with that reason, as canary-checker fails a check whose metric cannot be exported.
   */
  exportMetrics?: (samples: readonly MetricSample[]) => string[];
}

/** What one run runs: a claimed check row, or one check of a junit report row. */
interface RunTarget {
  type: string;
  name: string;
  description: string | null;
  labels: Record<string, string> | null;
  endpoint: string | null;
  spec: Record<string, unknown>;
}

interface ClaimedCheck {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string | null;
  canary_labels: Record<string, string> | null;
  type: string;
  name: string;
  description: string | null;
  labels: Record<string, string> | null;
  endpoint: string | null;
  spec: Record<string, unknown>;
  schedule: string | null;
  /** The two fields of the canary's spec that can set its schedule (effectiveSchedule), not the whole spec. */
  canary_timing: Record<string, unknown>;
}

/**
 * What a claim returns of each check (and of its canary). Of the canary's spec only what sets the schedule: the whole
 * spec holds every check of the canary, so a claim of 200 checks of a 1,000-check canary carried 200 copies of it.
 */
const CLAIMED_COLUMNS = `k.id, k.canary_id, c.name as canary_name, c.namespace as canary_namespace, c.labels as canary_labels, k.type, k.name,
                 k.description, k.labels, k.endpoint, k.spec, c.schedule,
                 jsonb_build_object('schedule', c.spec->'schedule', 'interval', c.spec->'interval') as canary_timing`;

/** The names a check's `dependsOn` lists (checked at save). */
function dependsOnOf(check: ClaimedCheck): string[] {
  const names = check.spec.dependsOn;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}

interface DependencyInputs {
  /** `outputs.<name>`: the result variables of each check it depends on; null for a check that depends on none. */
  outputs: Record<string, unknown> | null;
  /** Why it does not run: a check it depends on failed or did not run. */
  failed: string | null;
}

function dependencyInputs(
  check: ClaimedCheck,
  byName: ReadonlyMap<string, ClaimedCheck>,
  done: ReadonlyMap<string, PromiseSettledResult<RecordedRun | null>>,
): DependencyInputs {
  const names = dependsOnOf(check);
  if (names.length === 0) return { outputs: null, failed: null };
  const outputs: Record<string, unknown> = {};
  for (const name of names) {
    const dependency = byName.get(name);
    const outcome = dependency === undefined ? undefined : done.get(dependency.id);
    if (outcome === undefined) return { outputs: null, failed: `not run: it depends on '${name}', which did not run before it (another worker holds it)` };
    const run = outcome.status === 'fulfilled' ? outcome.value : null;
    if (run === null || !run.result.pass) return { outputs: null, failed: `not run: it depends on '${name}', which failed` };
    outputs[name] = run.result.variables ?? {};
  }
  return { outputs, failed: null };
}

export interface RecordedRun {
  checkId: string;
  previous: string | null;
  status: 'healthy' | 'unhealthy';
  result: CheckResult;
  /** The checks this run's transform fanned out into: recorded, and those whose name a check of the canary already has. */
  transformed?: { recorded: number; removed: number; refused: string[] };
}

/**
 * Types whose run is one request over a socket this process opens and waits on: the scheduler runs many at once. The
 * others start a process (exec, icmp's ping), hold a connection to a database (SQL, redis, mongodb, catalog) or read
 * disks and clusters (folder, kubernetes), and stay few at a time.
 */
export const NETWORK_CHECK_TYPES: readonly string[] = ['http', 'tcp', 'dns', 'prometheus', 'alertmanager', 'elasticsearch', 'opensearch'];

/** Defaults, per process (config.checkConcurrency sets them): enough network checks at once for 10,000 a minute. */
const DEFAULT_CONCURRENCY = 8;
const DEFAULT_NETWORK_CONCURRENCY = 200;

type CheckClass = 'network' | 'bounded';

function classOf(type: string): CheckClass {
  return NETWORK_CHECK_TYPES.includes(type) ? 'network' : 'bounded';
}

function nextFor(check: ClaimedCheck, after: Date): Date {
  try {
    return nextRuntime(parseSchedule(effectiveSchedule(check.schedule, check.canary_timing)), after);
  } catch {
    return nextRuntime(parseSchedule(DEFAULT_SCHEDULE), after);
  }
}

/**
 * Runs due checks. Each pass claims what it has room for with a short single-statement lease (never holding a
 * transaction while a checker runs: PGlite has one backend), runs them with a concurrency limit per class of check
 * (many network checks, few of the rest), and records the results of the runs that finish together in one statement
 * (StatusWriter). Room freed by finished runs is
 * claimed again at once, a quarter of a class's limit at a time, rather than at the next poll. Checks claimed together
 * for one canary form one canary run in job_history.
 */
export class CheckScheduler {
  readonly owner = leaseOwner();
  private readonly limits: Record<CheckClass, number>;
  private readonly inflight: Record<CheckClass, number> = { network: 0, bounded: 0 };
  /** The last claim filled the class's room, so more may be due: only then does freed room wake the loop early. */
  private readonly backlog: Record<CheckClass, boolean> = { network: false, bounded: false };
  private readonly loop: PollLoop;
  private readonly leaseSeconds: number;
  private readonly statuses: StatusWriter;

  constructor(private readonly options: SchedulerOptions) {
    this.limits = { network: options.networkConcurrency ?? DEFAULT_NETWORK_CONCURRENCY, bounded: options.concurrency ?? DEFAULT_CONCURRENCY };
    this.statuses = new StatusWriter(options.pool, this.owner);
    this.leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    this.loop = new PollLoop({ pass: () => this.poll(), pollMs: options.pollMs ?? 1000, onError: options.onError, passAgainOnWake: true });
    // Every running check listens on the stop signal (its probe is cut short when the server stops): hundreds at once
    // are expected here, not a leak.
    setMaxListeners(this.limits.network + this.limits.bounded + 16, this.loop.signal);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling, aborts running checks and waits for their results to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Polls at once (a check was requested or a canary saved). */
  wake(): void {
    this.loop.wake();
  }

  /** Claims and runs one batch of due checks and waits for them; returns the runs recorded. */
  async runDue(): Promise<RecordedRun[]> {
    return this.runClaimed(await this.claim());
  }

  private room(kind: CheckClass): number {
    return this.limits[kind] - this.inflight[kind];
  }

  private started(check: ClaimedCheck): void {
    this.inflight[classOf(check.type)] += 1;
  }

  /**
   * A run ended: when the last claim left checks of its class waiting and a quarter of the class's room is free, the
   * next pass claims more without waiting for the poll (and with nothing waiting, finished runs cost no claim).
   */
  private finished(check: ClaimedCheck): void {
    const kind = classOf(check.type);
    this.inflight[kind] -= 1;
    if (this.backlog[kind] && this.room(kind) >= Math.max(1, Math.floor(this.limits[kind] / 4))) this.loop.wake();
  }

  private async poll(): Promise<void> {
    const claimed = await this.claim();
    if (claimed.length === 0) return;
    this.loop.track(
      this.runClaimed(claimed).then(
        () => undefined,
        (error: unknown) => this.options.onError?.(error),
      ),
    );
  }

  /** Leases due checks up to the room of each class, in one statement. */
  private async claim(): Promise<ClaimedCheck[]> {
    const network = Math.max(0, this.room('network'));
    const bounded = Math.max(0, this.room('bounded'));
    if (network === 0 && bounded === 0) return [];
    const result = await this.options.pool.query<ClaimedCheck>(
      `with due_network as (
         select k.id from checks k
          where k.deleted_at is null and k.agent_id is null and k.next_runtime <= now()
            and (k.lease_until is null or k.lease_until < now()) and k.type = any($4::text[])
          order by k.next_runtime, k.canary_id
          limit $1
          for update skip locked
       ), due_bounded as (
         select k.id from checks k
          where k.deleted_at is null and k.agent_id is null and k.next_runtime <= now()
            and (k.lease_until is null or k.lease_until < now()) and not (k.type = any($4::text[]))
          order by k.next_runtime, k.canary_id
          limit $5
          for update skip locked
       ), due as (
         select id from due_network union all select id from due_bounded
       )
       update checks k set lease_owner = $2, lease_until = now() + make_interval(secs => $3)
         from due, canaries c
        where k.id = due.id and c.id = k.canary_id
       returning ${CLAIMED_COLUMNS}`,
      [network, this.owner, this.leaseSeconds, NETWORK_CHECK_TYPES, bounded],
    );
    const networkClaimed = result.rows.filter((row) => classOf(row.type) === 'network').length;
    // A class with no room was not asked for: what it knew of its backlog stands.
    if (network > 0) this.backlog.network = networkClaimed >= network;
    if (bounded > 0) this.backlog.bounded = result.rows.length - networkClaimed >= bounded;
    return result.rows;
  }

  private async runClaimed(all: ClaimedCheck[]): Promise<RecordedRun[]> {
    const claimed = all.filter((check) => typeof check.spec.transformedFrom !== 'string');
    await this.handOverToParents(all.filter((check) => typeof check.spec.transformedFrom === 'string'));
    const byCanary = new Map<string, ClaimedCheck[]>();
    for (const check of claimed) byCanary.set(check.canary_id, [...(byCanary.get(check.canary_id) ?? []), check]);
    for (const check of claimed) this.started(check);
    const runs = await Promise.all([...byCanary.values()].map((checks) => this.runCanary(checks)));
    return runs.flat();
  }

  /**
   * A check a transform made (spec.transformedFrom) has no run of its own: its results come from its parent's. One
   * that fell due (Run Now sets next_runtime) makes its parent due instead and is released without a next run, so
   * the request runs what produces it, on the next pass.
   */
  private async handOverToParents(children: ClaimedCheck[]): Promise<void> {
    if (children.length === 0) return;
    await this.options.pool.query(
      `with released as (
         update checks set next_runtime = null, lease_owner = null, lease_until = null
          where id = any($1::uuid[]) and lease_owner = $2
         returning spec->>'transformedFrom' as parent
       )
       update checks p set next_runtime = now()
         from released r
        where p.id::text = r.parent and p.deleted_at is null`,
      [children.map((child) => child.id), this.owner],
    );
  }

  private async runCanary(claimed: ClaimedCheck[]): Promise<RecordedRun[]> {
    const started = new Date();
    const checks = await this.withDependencies(claimed);
    const settled = await this.runInOrder(checks);
    const recorded: RecordedRun[] = [];
    const errors: string[] = [];
    for (const [index, outcome] of settled.entries()) {
      const check = checks[index];
      if (outcome.status === 'fulfilled') {
        if (outcome.value !== null) {
          recorded.push(outcome.value);
          if (check !== undefined) this.options.onRecorded?.(check.type, outcome.value);
          if (!outcome.value.result.pass) errors.push(`${check?.name ?? ''}: ${outcome.value.result.error ?? outcome.value.result.message}`);
          for (const name of outcome.value.transformed?.refused ?? []) {
            errors.push(`${check?.name ?? ''}: the transform's result '${name}' was not recorded: the canary defines a check of that name`);
          }
        }
      } else {
        this.options.onError?.(outcome.reason);
        errors.push(`${check?.name ?? ''}: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}`);
      }
    }
    const first = checks[0];
    // Nothing recorded and nothing failed: every check was abandoned at shutdown or taken over, so there was no run.
    if (recorded.length === 0 && errors.length === 0) return recorded;
    if (first !== undefined) await this.recordJob(first, started, recorded, errors).catch((error: unknown) => this.options.onError?.(error));
    return recorded;
  }

  /**
   * The claimed checks and the checks of their canaries they depend on (`dependsOn`) that this batch lacks, claimed now
   * (a batch may end in the middle of a canary); one another worker holds stays out, and its dependants fail naming it.
   */
  private async withDependencies(claimed: ClaimedCheck[]): Promise<ClaimedCheck[]> {
    const all = [...claimed];
    const asked = new Set(claimed.map((check) => check.name));
    let frontier = claimed;
    for (;;) {
      const missing = [...new Set(frontier.flatMap(dependsOnOf))].filter((name) => !asked.has(name));
      const canaryId = claimed[0]?.canary_id;
      if (missing.length === 0 || canaryId === undefined) return all;
      for (const name of missing) asked.add(name);
      const more = await this.claimByName(canaryId, missing);
      for (const check of more) this.started(check);
      all.push(...more);
      frontier = more;
    }
  }

  private async claimByName(canaryId: string, names: readonly string[]): Promise<ClaimedCheck[]> {
    const result = await this.options.pool.query<ClaimedCheck>(
      `with wanted as (
         select k.id from checks k
          where k.canary_id = $1 and k.name = any($2::text[]) and k.deleted_at is null and k.agent_id is null
            and (k.lease_until is null or k.lease_until < now())
          for update skip locked
       )
       update checks k set lease_owner = $3, lease_until = now() + make_interval(secs => $4)
         from wanted, canaries c
        where k.id = wanted.id and c.id = k.canary_id
       returning ${CLAIMED_COLUMNS}`,
      [canaryId, names, this.owner, this.leaseSeconds],
    );
    return result.rows;
  }

  /**
   * Runs a canary's checks, each after the checks it depends on (those of one layer at once): a dependant reads their
   * result variables as `outputs.<name>`, and fails without running, naming them, when one failed or did not run.
   */
  private async runInOrder(checks: readonly ClaimedCheck[]): Promise<Array<PromiseSettledResult<RecordedRun | null>>> {
    const byName = new Map(checks.map((check) => [check.name, check]));
    const done = new Map<string, PromiseSettledResult<RecordedRun | null>>();
    const pending = new Set(checks);
    while (pending.size > 0) {
      const ready = [...pending].filter((check) => dependsOnOf(check).every((name) => !byName.has(name) || done.has(byName.get(name)?.id ?? '')));
      // A cycle is refused at save; a stored one fails its checks, each naming the other, rather than waiting forever.
      const layer = ready.length > 0 ? ready : [...pending];
      const settled = await Promise.allSettled(layer.map((check) => this.runOne(check, dependencyInputs(check, byName, done))));
      layer.forEach((check, index) => {
        const outcome = settled[index];
        if (outcome !== undefined) done.set(check.id, outcome);
        pending.delete(check);
      });
    }
    return checks.map((check) => done.get(check.id) ?? { status: 'fulfilled', value: null });
  }

  private async runOne(check: ClaimedCheck, inputs: DependencyInputs = { outputs: null, failed: null }): Promise<RecordedRun | null> {
    const startedAt = new Date();
    let result: CheckResult;
    // Renewed while the check runs (a check may take up to its two-minute timeout cap), so a slow run is never claimed twice
    // however short the lease, and a crashed worker's check is free again one lease after its last renewal.
    const renewal = setInterval(() => {
      this.renew(check.id).catch((error: unknown) => this.options.onError?.(error));
    }, (this.leaseSeconds * 1000) / 4);
    try {
      result = inputs.failed === null ? await this.execute(check, inputs.outputs) : { pass: false, durationMs: 0, message: inputs.failed, error: inputs.failed, details: null };
    } finally {
      clearInterval(renewal);
      this.finished(check);
    }
    // A failure after stop aborted the run says nothing about the target (a probe cut short, or of a server that is
    // going away): it is not recorded, and the check runs again as soon as a scheduler is back.
    if (this.loop.signal.aborted && !result.pass) {
      await this.release(check);
      return null;
    }
    return this.record(check, startedAt, result);
  }

  private async renew(id: string): Promise<void> {
    await this.options.pool.query(`update checks set lease_until = now() + make_interval(secs => $3) where id = $1 and lease_owner = $2`, [
      id,
      this.owner,
      this.leaseSeconds,
    ]);
  }

  private async release(check: ClaimedCheck): Promise<void> {
    await this.options.pool.query(`update checks set lease_owner = null, lease_until = null where id = $1 and lease_owner = $2`, [
      check.id,
      this.owner,
    ]);
  }

  private async execute(check: ClaimedCheck, outputs: Record<string, unknown> | null): Promise<CheckResult> {
    if (check.type === JUNIT_CHECK_TYPE) return this.executeJunitReport(check);
    const lastResult = readsLastResult(check.spec) ? await loadLastResult(this.options.pool, check.id) : undefined;
    return this.executeOne(check, check, outputs, lastResult);
  }

  /**
   * A junit canary's one row (`resultMode: junit`): every check of its spec runs here, in turn, each exactly as a check
   * row of its own runs (executeOne: its own secrets, references, timeout, expressions and metrics), and the run records
   * one result, the JUnit report (junit-report.ts). The spec is judged again first, so a row written past the save
   * rules fails by them rather than running part of itself.
   */
  private async executeJunitReport(check: ClaimedCheck): Promise<CheckResult> {
    let entries: CheckDefinition[];
    try {
      entries = junitReportChecks(check.spec);
    } catch (error) {
      if (!(error instanceof CanarySpecError)) throw error;
      const message = `Invalid check spec: ${error.message}`;
      return { pass: false, durationMs: 0, message, error: message, details: null };
    }
    const keepsResults = (entry: CheckDefinition): boolean => readsLastResult(entry.spec);
    const previous = entries.some(keepsResults) ? await loadLastResult(this.options.pool, check.id) : null;
    const canaryLabels = check.canary_labels ?? {};
    return runJunitReport(
      check.canary_name,
      entries,
      (entry, outputs) =>
        this.executeOne(
          check,
          { type: entry.type, name: entry.name, description: entry.description, labels: { ...canaryLabels, ...entry.labels }, endpoint: entry.endpoint, spec: entry.spec },
          outputs,
          previous === null || !keepsResults(entry) ? undefined : lastResultOfTest(previous, entry),
        ),
      { signal: this.loop.signal, keepsResults },
    );
  }

  /**
   * Runs one check: the claimed row itself, or one check of a junit report row (`target`), under the row's canary.
   * Secrets are opened only here, in memory, for the one run: the stored spec keeps them sealed. So this is also where
   * every secret the run was given is known, and scrubbed from its result before anything stores or publishes it.
   */
  private async executeOne(check: ClaimedCheck, target: RunTarget, outputs: Record<string, unknown> | null, lastResult: LastResult | undefined): Promise<CheckResult> {
    const { pool, secretKey } = this.options;
    let spec: Record<string, unknown>;
    try {
      spec = openCheckSpec(secretKey, check.canary_id, target.spec);
    } catch (error) {
      if (!(error instanceof SpecSecretError)) throw error;
      return { pass: false, durationMs: 0, message: error.message, error: error.message, details: null };
    }
    const secrets = new SecretCollector();
    secrets.addOpenedSpec(target.spec, spec);
    const opened = connectionOpener(pool, secretKey, secrets);
    const referenced = await withReferencesResolved(pool, spec, check.canary_namespace, opened, secrets);
    if ('failed' in referenced) return referenced.failed;
    spec = referenced.spec;
    if (isExecCheckType(target.type)) secrets.addEnvironment(spec.env);
    const result = await runCheck(target.type, spec, {
      pool,
      ...(lastResult === undefined ? {} : { lastResult }),
      signal: this.loop.signal,
      identity: {
        canary: { name: check.canary_name, namespace: check.canary_namespace ?? '', labels: check.canary_labels ?? {}, id: check.canary_id },
        check: { name: target.name, id: check.id, description: target.description ?? '', labels: target.labels ?? {}, endpoint: target.endpoint ?? '' },
      },
      resolveConnection: opened,
      // Expressions never see a secret, so none can re-encode one past the scrubbing of the result below.
      redact: (data) => scrubSecrets(data, secrets.values()),
      ...(outputs === null ? {} : { variables: { outputs } }),
    });
    const { artifacts, ...kept } = result;
    const scrubbed: CheckResult = {
      ...scrubSecrets(kept, secrets.values()),
      // Buffers are scrubbed as bytes: the generic scrubber walks plain data only.
      ...(artifacts === undefined ? {} : { artifacts: artifacts.map((artifact) => scrubArtifact(artifact, secrets.values())) }),
    };
    const problems = scrubbed.metrics === undefined || this.options.exportMetrics === undefined ? [] : this.options.exportMetrics(scrubbed.metrics);
    if (problems.length === 0) return scrubbed;
    const error = [scrubbed.error, ...problems].filter((part): part is string => part !== null && part !== '').join(', ');
    return { ...scrubbed, pass: false, error };
  }

  /** The run's status, the check's state and an event on a transition, written with the other runs finishing now (StatusWriter). */
  private async record(check: ClaimedCheck, startedAt: Date, result: CheckResult): Promise<RecordedRun | null> {
    const status = result.pass ? 'healthy' : 'unhealthy';
    const row = await this.statuses.write({
      checkId: check.id,
      startedAt,
      nextRuntime: nextFor(check, new Date()),
      pass: result.pass,
      durationMs: result.durationMs,
      message: result.message,
      error: result.error,
      details: result.details,
    });
    // No row: the lease was lost (expired and taken by another worker), whose result counts instead.
    if (row === null) return null;
    if (result.artifacts !== undefined) await this.keepArtifacts(check.id, result.artifacts);
    if (row.previous !== status) {
      this.options.bus.publish({
        name: result.pass ? 'check.passed' : 'check.failed',
        payload: { id: check.id, check_id: check.id, canary_id: check.canary_id, name: check.name, status, previous_status: row.previous },
      });
    }
    const run: RecordedRun = { checkId: check.id, previous: row.previous, status, result };
    if (result.transformed === undefined || result.transformed === null) {
      await this.relate(check, [{ id: check.id, canaryId: check.canary_id, name: check.name, labels: check.labels ?? {}, pass: result.pass, message: result.message }]);
      return run;
    }
    const transformed = await this.recordTransformed(check, startedAt, result.transformed);
    const made = new Map(result.transformed.map((kid) => [`${kid.type}/${kid.name}`, kid]));
    await this.relate(
      check,
      transformed.written.flatMap((written) => {
        const kid = made.get(`${written.type}/${written.name}`);
        return kid === undefined ? [] : [{ id: written.id, canaryId: check.canary_id, name: kid.name, labels: kid.labels, pass: kid.pass, message: kid.message }];
      }),
    );
    return { ...run, transformed: { recorded: transformed.recorded, removed: transformed.removed, refused: transformed.refused } };
  }

  /** The check's newest run's files replace the ones it kept before (ADR 0087); a failure is reported, never lost. */
  private async keepArtifacts(checkId: string, artifacts: readonly CollectedArtifact[]): Promise<void> {
    try {
      await this.options.pool.query(
        `with gone as (delete from exec_artifacts where check_id = $1)
         insert into exec_artifacts (check_id, path, size, checksum, content)
         select $1, f.path, f.size, f.checksum, f.content from unnest($2::text[], $3::bigint[], $4::text[], $5::bytea[]) as f(path, size, checksum, content)`,
        [checkId, artifacts.map((a) => a.path), artifacts.map((a) => a.size), artifacts.map((a) => a.checksum), artifacts.map((a) => a.content)],
      );
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /**
   * canary-checker's `relationships` of a check, for the check itself or each check its transform made (with the
   * parent's selectors, as canary-checker reads them). A failure is reported, never lost, and does not undo the run.
   */
  private async relate(check: ClaimedCheck, related: readonly RelatedCheck[]): Promise<void> {
    const parsed = checkRelationshipsSchema.safeParse(check.spec.relationships);
    if (check.spec.relationships === undefined || !parsed.success) return;
    for (const target of related) {
      try {
        for (const problem of await formCheckRelationships(this.options.pool, target, parsed.data)) this.options.onError?.(new Error(`${target.name}: ${problem}`));
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  /**
   * The checks a transform fanned out into, in one statement: each is created or updated by (type, name) under the
   * parent's canary and gets this run's status row; the parent's earlier ones it no longer returned are soft-deleted.
   * They never run by themselves (no next_runtime; one made due runs its parent, handOverToParents). A name the
   * canary's own spec uses is left to that check and reported, never overwritten.
   */
  private async recordTransformed(
    check: ClaimedCheck,
    startedAt: Date,
    checks: TransformedCheck[],
  ): Promise<{ recorded: number; removed: number; refused: string[]; written: Array<{ id: string; name: string; type: string }> }> {
    const rows = checks.map((t) => ({ ...t, message: t.message.slice(0, 10_000), error: t.error === null ? null : t.error.slice(0, 10_000) }));
    const result = await this.options.pool.query<{ id: string | null; name: string; type: string; status: string; previous: string | null; removed: number }>(
      `with kids as (
         select * from jsonb_to_recordset($2::jsonb)
           as t(name text, type text, description text, icon text, labels jsonb, pass boolean, message text, error text, details jsonb, "durationMs" integer)
       ), parent as (
         select id, canary_id, agent_id, namespace, created_by from checks where id = $1 and deleted_at is null
       ), prev as (
         select c.id, c.type, c.name, c.status from checks c, parent p
          where c.canary_id = p.canary_id and c.deleted_at is null and c.spec->>'transformedFrom' = p.id::text
       ), up as (
         insert into checks as c (canary_id, agent_id, type, name, namespace, description, icon, labels, spec, status, last_runtime,
                                  next_runtime, created_by)
         select p.canary_id, p.agent_id, k.type, k.name, p.namespace, k.description, k.icon, coalesce(k.labels, '{}'::jsonb),
                jsonb_build_object('transformedFrom', p.id, 'name', k.name), case when k.pass then 'healthy' else 'unhealthy' end, $3, null, p.created_by
           from kids k, parent p
         on conflict (canary_id, type, name) where deleted_at is null do update set
           description = excluded.description, icon = excluded.icon, labels = excluded.labels, status = excluded.status,
           last_runtime = excluded.last_runtime
         where c.spec->>'transformedFrom' = excluded.spec->>'transformedFrom'
         returning c.id, c.type, c.name, c.status
       ), ins as (
         insert into check_statuses (check_id, time, status, duration, message, error, details)
         select up.id, $3, k.pass, k."durationMs", k.message, k.error, k.details
           from up join kids k on k.type = up.type and k.name = up.name
         on conflict (check_id, time) do nothing
         returning 1
       ), gone as (
         update checks c set deleted_at = now()
           from prev
          where c.id = prev.id and not exists (select 1 from kids k where k.type = prev.type and k.name = prev.name)
         returning c.id
       ), ev as (
         insert into event_queue (name, properties)
         select case when up.status = 'healthy' then 'check.passed' else 'check.failed' end,
                jsonb_build_object('id', up.id, 'check_id', up.id, 'canary_id', $4::uuid, 'name', up.name, 'type', up.type, 'status', up.status,
                                   'previous_status', prev.status, 'message', k.message, 'error', k.error, 'time', $3::timestamptz)
           from up join kids k on k.type = up.type and k.name = up.name
           left join prev on prev.type = up.type and prev.name = up.name
          where prev.status is distinct from up.status
         returning 1
       )
       -- ins and ev run whether read or not (PostgreSQL runs every data-modifying WITH to completion); one row even when up is empty.
       select up.id, up.name, up.type, up.status, prev.status as previous, (select count(*) from gone)::integer as removed
         from (select 1) as one
         left join up on true
         left join prev on prev.type = up.type and prev.name = up.name`,
      [check.id, JSON.stringify(rows), startedAt.toISOString(), check.canary_id],
    );
    const written = result.rows.filter((row) => row.id !== null);
    for (const row of written) {
      if (row.previous === row.status) continue;
      this.options.bus.publish({
        name: row.status === 'healthy' ? 'check.passed' : 'check.failed',
        payload: { id: row.id, check_id: row.id, canary_id: check.canary_id, name: row.name, status: row.status, previous_status: row.previous },
      });
    }
    const done = new Set(written.map((row) => `${row.type}/${row.name}`));
    return {
      recorded: written.length,
      removed: result.rows[0]?.removed ?? 0,
      refused: checks.filter((t) => !done.has(`${t.type}/${t.name}`)).map((t) => t.name),
      written: written.flatMap((row) => (row.id === null ? [] : [{ id: row.id, name: row.name, type: row.type }])),
    };
  }

  private async recordJob(first: ClaimedCheck, started: Date, recorded: RecordedRun[], errors: string[]): Promise<void> {
    const passed = recorded.filter((run) => run.result.pass).length;
    const failedCount = recorded.length - passed;
    const status = failedCount === 0 ? 'SUCCESS' : passed === 0 ? 'FAILED' : 'WARNING';
    await this.options.pool.query(
      `insert into job_history (name, resource_type, resource_id, status, success_count, error_count, duration_millis, hostname,
                                time_start, time_end, details)
       values ('Canary', 'canary', $1, $2, $3, $4, $5, $6, $7, now(), $8)`,
      [
        first.canary_id,
        status,
        passed,
        failedCount,
        Date.now() - started.getTime(),
        os.hostname(),
        started.toISOString(),
        JSON.stringify({ errors: errors.slice(0, 50), summary: { canary: first.canary_name, checks: recorded.length, passed, failed: failedCount } }),
      ],
    );
  }
}
