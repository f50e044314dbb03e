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
  /** Aborted when the scheduler stops or another worker took the lease over. */
  signal: AbortSignal;
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
 * Runs due subjects (scrapers, topologies). Each pass claims what it has room for with a short single-statement lease
 * (FOR UPDATE SKIP LOCKED, never a transaction held while a run lasts: PGlite has one backend), so exactly one worker
 * across all processes runs a subject, and one subject never runs twice at once. The lease is renewed while the run
 * lasts; a run whose lease was lost has its signal aborted rather than being left to race the worker that took it over.
 */
export class LeaseScheduler<Row extends { id: string }, Outcome> {
  readonly owner = leaseOwner();
  private readonly maxInFlight: number;
  private inflight = 0;
  private readonly loop: PollLoop;
  private readonly tables: LeaseTables;
  private readonly leaseSeconds: number;

  constructor(private readonly options: LeaseSchedulerOptions<Row, Outcome>) {
    this.tables = checkedTables(options.tables);
    this.leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    this.maxInFlight = options.maxInFlight ?? options.defaultMaxInFlight;
    this.loop = new PollLoop({ pass: () => this.poll(), pollMs: options.pollMs ?? 1000, onError: options.onError });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling, aborts the signal of the runs under way and waits for them to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop(new Error('the server is stopping'));
  }

  /** Polls at once (Run Now, or a subject saved). */
  wake(): void {
    this.loop.wake();
  }

  /** Claims the due subjects it has room for, runs them and waits for them; returns what each run recorded. */
  async runDue(): Promise<Map<string, Outcome>> {
    const claimed = await this.claim(this.maxInFlight - this.inflight);
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
    for (const row of await this.claim(this.maxInFlight - this.inflight)) {
      this.loop.track(this.runClaimed(row).then(() => undefined));
    }
  }

  private async claim(limit: number): Promise<Row[]> {
    if (limit <= 0) return [];
    const { schedule, key, subject, columns, nullColumns } = this.tables;
    const live = nullColumns.map((column) => ` and subject.${column} is null`).join('');
    const result = await this.options.pool.query<Row>(
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
      [limit, this.owner, this.leaseSeconds],
    );
    return result.rows;
  }

  /** Never rejects: whatever goes wrong is reported to onError, and the lease is released for the next run. */
  private async runClaimed(row: Row): Promise<Outcome | null> {
    this.inflight += 1;
    const lost = new AbortController();
    const signal = AbortSignal.any([this.loop.signal, lost.signal]);
    const renewal = setInterval(() => {
      this.renew(row.id).then(
        (held) => {
          if (!held) lost.abort(new Error(`another worker took over this ${this.tables.noun}`));
        },
        (error: unknown) => this.options.onError?.(error),
      );
    }, (this.leaseSeconds * 1000) / 4);
    let outcome: Outcome | null = null;
    try {
      outcome = await this.options.run(row, { owner: this.owner, signal });
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      clearInterval(renewal);
      this.inflight -= 1;
    }
    await this.release(row, outcome).catch((error: unknown) => this.options.onError?.(error));
    if (outcome !== null) this.options.onRun?.(row.id, outcome);
    return outcome;
  }

  private async renew(id: string): Promise<boolean> {
    const { schedule, key } = this.tables;
    const result = await this.options.pool.query(
      `update ${schedule} set lease_expires_at = now() + make_interval(secs => $3) where ${key} = $1 and lease_owner = $2`,
      [id, this.owner, this.leaseSeconds],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** A Run Now that came while the subject ran leaves it due at once; otherwise it waits for its schedule. */
  private async release(row: Row, outcome: Outcome | null): Promise<void> {
    const { schedule, key } = this.tables;
    const next = this.options.nextRuntime(row, outcome);
    await this.options.pool.query(
      `update ${schedule}
          set lease_owner = null, lease_expires_at = null, running = false, run_requested_at = null,
              next_runtime = case when run_requested_at is not null then now() else $3 end
        where ${key} = $1 and lease_owner = $2`,
      [row.id, this.owner, next.toISOString()],
    );
  }
}
