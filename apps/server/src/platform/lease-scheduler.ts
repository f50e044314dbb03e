import type pg from 'pg';
import { leaseOwner, PollLoop } from './poll-loop';

/**
 * Short, and renewed (every quarter of it) while the run lasts: a crashed worker's row is picked up again within a
 * minute or two. OPSDECK_LEASE_SECONDS sets it (config.leaseSeconds), e.g. shorter in the scale-out test.
 */
export const DEFAULT_LEASE_SECONDS = 120;

/** Names below are spliced into SQL, so only plain lower-case identifiers written in code are accepted. */
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Where a lease scheduler keeps its rows. The schedule table has one row per subject, keyed by `key` (the subject's
 * id), with next_runtime, lease_owner, lease_expires_at, running, last_runtime and run_requested_at.
 */
export interface LeaseTables {
  schedule: string;
  key: string;
  /** The table `key` points into; a claim returns `columns` of the subject's row. */
  subject: string;
  columns: readonly string[];
  /** Subject columns that must be null for a due row to be claimed (deleted_at, agent_id). */
  nullColumns: readonly string[];
  /** What one subject is called, in the reason a run is aborted when another worker takes its lease. */
  noun: string;
}

export interface Lease {
  owner: string;
  /** Aborted when the scheduler stops, another worker took the lease over, or abort() was called for the subject. */
  signal: AbortSignal;
}

/**
 * Where a lease loop's subjects are claimed, kept and handed back: the SQL of one kind of subject. `owner` is the
 * loop's lease_owner, written into what it claims.
 */
export interface LeaseStore<Row extends { id: string }, Outcome> {
  /** Leases up to `limit` due subjects to `owner` and returns them. */
  claim: (limit: number, owner: string) => Promise<Row[]>;
  /** Extends the lease `owner` holds on `row`: null while the run may go on, else the reason its signal is aborted with. */
  renew: (row: Row, owner: string) => Promise<Error | null>;
  /** After the run (outcome null when it threw); left out when the run hands its subject back itself. */
  release?: (row: Row, outcome: Outcome | null, owner: string) => Promise<void>;
}

export interface LeaseLoopOptions<Row extends { id: string }, Outcome> {
  store: LeaseStore<Row, Outcome>;
  run: (row: Row, lease: Lease) => Promise<Outcome>;
  /** Runs at once in this process. */
  maxInFlight: number;
  /** How often a lease is renewed while its run lasts: a fraction of the lease, so one late renewal does not lose it. */
  renewEveryMs: number;
  pollMs?: number;
  /** See PollLoopOptions.passAgainOnWake. */
  passAgainOnWake?: boolean;
  onError?: (error: unknown) => void;
  /** Called after each run that did not throw, once its subject is released. */
  onRun?: (id: string, outcome: Outcome) => void;
}

/**
 * Runs due subjects on leases. Each pass claims what it has room for through the store (a short single-statement
 * lease, FOR UPDATE SKIP LOCKED, never a transaction held while a run lasts: PGlite has one backend), so exactly one
 * worker across all processes runs a subject, and one subject never runs twice at once. The lease is renewed while the
 * run lasts; a run whose lease was lost has its signal aborted rather than being left to race the worker that took it
 * over.
 */
export class LeaseLoop<Row extends { id: string }, Outcome> {
  readonly owner = leaseOwner();
  /** Runs under way, counted apart from `aborts` so a subject claimed again after losing its lease counts twice. */
  private inflight = 0;
  /** What aborts the latest run of each subject alone. */
  private readonly aborts = new Map<string, AbortController>();
  private readonly loop: PollLoop;

  constructor(private readonly settings: LeaseLoopOptions<Row, Outcome>) {
    this.loop = new PollLoop({
      pass: () => this.poll(),
      pollMs: settings.pollMs ?? 1000,
      onError: settings.onError,
      passAgainOnWake: settings.passAgainOnWake,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling, aborts the signal of the runs under way with `reason` and waits for them to be recorded. */
  async stop(reason: Error = new Error('the server is stopping')): Promise<void> {
    await this.loop.stop(reason);
  }

  /** Polls at once (Run Now, or a subject saved). */
  wake(): void {
    this.loop.wake();
  }

  /** Aborts the signal of the run of subject `id` with `reason`, when this loop runs it. */
  abort(id: string, reason: Error): void {
    this.aborts.get(id)?.abort(reason);
  }

  /** Claims the due subjects it has room for, runs them and waits for them; returns what each run recorded. */
  async runDue(): Promise<Map<string, Outcome>> {
    const claimed = await this.claim();
    const outcomes = new Map<string, Outcome>();
    await Promise.all(
      claimed.map(async (row) => {
        const outcome = await this.runClaimed(row);
        if (outcome !== null) outcomes.set(row.id, outcome);
      }),
    );
    return outcomes;
  }

  private async poll(): Promise<void> {
    for (const row of await this.claim()) {
      this.loop.track(this.runClaimed(row).then(() => undefined));
    }
  }

  private async claim(): Promise<Row[]> {
    const room = this.settings.maxInFlight - this.inflight;
    if (room <= 0) return [];
    return this.settings.store.claim(room, this.owner);
  }

  /** Never rejects: whatever goes wrong is reported to onError, and the subject is released for the next run. */
  private async runClaimed(row: Row): Promise<Outcome | null> {
    const { store } = this.settings;
    this.inflight += 1;
    const own = new AbortController();
    this.aborts.set(row.id, own);
    const signal = AbortSignal.any([this.loop.signal, own.signal]);
    const renewal = setInterval(() => {
      store.renew(row, this.owner).then(
        (reason) => {
          if (reason !== null) own.abort(reason);
        },
        (error: unknown) => this.settings.onError?.(error),
      );
    }, this.settings.renewEveryMs);
    let outcome: Outcome | null = null;
    try {
      outcome = await this.settings.run(row, { owner: this.owner, signal });
    } catch (error) {
      this.settings.onError?.(error);
    } finally {
      clearInterval(renewal);
      this.inflight -= 1;
      if (this.aborts.get(row.id) === own) this.aborts.delete(row.id);
    }
    if (store.release !== undefined) await store.release(row, outcome, this.owner).catch((error: unknown) => this.settings.onError?.(error));
    if (outcome !== null) this.settings.onRun?.(row.id, outcome);
    return outcome;
  }
}

/** What whoever starts a scheduler may tune. */
export interface LeaseSchedulerSettings<Outcome> {
  /** Runs at once in this process. */
  maxInFlight?: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Called after each run is recorded (tests wait on it; the plugins observe the run's duration). */
  onRun?: (id: string, outcome: Outcome) => void;
  /** How long a claim holds before another worker may take the subject over; DEFAULT_LEASE_SECONDS when not given. */
  leaseSeconds?: number;
}

export interface LeaseSchedulerOptions<Row extends { id: string }, Outcome> extends LeaseSchedulerSettings<Outcome> {
  pool: pg.Pool;
  tables: LeaseTables;
  run: (row: Row, lease: Lease) => Promise<Outcome>;
  /** When the subject is due again after a run; the outcome is null when the run threw. */
  nextRuntime: (row: Row, outcome: Outcome | null) => Date;
  /** maxInFlight when the settings give none. */
  defaultMaxInFlight: number;
}

function checkedTables(tables: LeaseTables): LeaseTables {
  const names = [tables.schedule, tables.key, tables.subject, ...tables.columns, ...tables.nullColumns];
  const bad = names.find((name) => !IDENTIFIER.test(name));
  if (bad !== undefined) throw new Error(`${JSON.stringify(bad)} is not a plain SQL identifier`);
  return tables;
}

/**
 * A lease loop over a schedule table (scrapers, topologies): a subject is due at its next_runtime, and is due again
 * after a run at the time nextRuntime gives, or at once when a Run Now came while it ran.
 */
export class LeaseScheduler<Row extends { id: string }, Outcome> extends LeaseLoop<Row, Outcome> {
  constructor(options: LeaseSchedulerOptions<Row, Outcome>) {
    const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    super({
      store: scheduleTableStore(options.pool, checkedTables(options.tables), leaseSeconds, options.nextRuntime),
      run: options.run,
      maxInFlight: options.maxInFlight ?? options.defaultMaxInFlight,
      renewEveryMs: (leaseSeconds * 1000) / 4,
      pollMs: options.pollMs,
      onError: options.onError,
      onRun: options.onRun,
    });
  }
}

function scheduleTableStore<Row extends { id: string }, Outcome>(
  pool: pg.Pool,
  tables: LeaseTables,
  leaseSeconds: number,
  nextRuntime: (row: Row, outcome: Outcome | null) => Date,
): LeaseStore<Row, Outcome> {
  const { schedule, key, subject, columns, nullColumns, noun } = tables;
  return {
    async claim(limit, owner) {
      const live = nullColumns.map((column) => ` and subject.${column} is null`).join('');
      const result = await pool.query<Row>(
        `with due as (
           select sched.${key} from ${schedule} sched
            where sched.next_runtime <= now() and (sched.lease_expires_at is null or sched.lease_expires_at < now())
            order by sched.next_runtime
            limit $1
            for update skip locked
         )
         update ${schedule} sched
            set lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3), running = true, last_runtime = now(),
                run_requested_at = null
           from due, ${subject} subject
          where sched.${key} = due.${key} and subject.id = sched.${key}${live}
         returning ${columns.map((column) => `subject.${column}`).join(', ')}`,
        [limit, owner, leaseSeconds],
      );
      return result.rows;
    },
    async renew(row, owner) {
      const result = await pool.query(
        `update ${schedule} set lease_expires_at = now() + make_interval(secs => $3) where ${key} = $1 and lease_owner = $2`,
        [row.id, owner, leaseSeconds],
      );
      return (result.rowCount ?? 0) > 0 ? null : new Error(`another worker took over this ${noun}`);
    },
    /** A Run Now that came while the subject ran leaves it due at once; otherwise it waits for its schedule. */
    async release(row, outcome, owner) {
      await pool.query(
        `update ${schedule}
            set lease_owner = null, lease_expires_at = null, running = false, run_requested_at = null,
                next_runtime = case when run_requested_at is not null then now() else $3 end
          where ${key} = $1 and lease_owner = $2`,
        [row.id, owner, nextRuntime(row, outcome).toISOString()],
      );
    },
  };
}
