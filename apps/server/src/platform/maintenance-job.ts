import type pg from 'pg';
import { LeaseLoop, type LeaseStore } from './lease-scheduler';

/** Longer than the slowest run (a retention pass over a large backlog); renewed every quarter of it all the same. */
const LEASE_SECONDS = 600;

/** What whoever starts a maintenance job may set. */
export interface MaintenanceJobSettings {
  pool: pg.Pool;
  /** A minute when not given: the jobs run hourly, so a run starts at most a minute late. */
  pollMs?: number;
  onError?: (error: unknown) => void;
}

interface MaintenanceJobBase extends MaintenanceJobSettings {
  /** Its row in maintenance_jobs, seeded by the migration that added the job. */
  name: string;
  /** From the end of one run to when the job is due again. */
  everyMs: number;
}

/**
 * What a run does. A job that needs something before it may run (the GitOps folder named) reads it in `prepare`,
 * before the claim: null leaves the row unclaimed and its schedule as it was, so the job runs as soon as it is ready.
 */
export type MaintenanceJobWork<Outcome, Input> =
  | { run: () => Promise<Outcome> }
  | { prepare: () => Promise<Input | null>; run: (input: Input) => Promise<Outcome> };

export type MaintenanceJobOptions<Outcome, Input> = MaintenanceJobBase & MaintenanceJobWork<Outcome, Input>;

/** The claimed row of maintenance_jobs, with the run it was claimed for. */
interface ClaimedJob<Outcome> {
  id: string;
  run: () => Promise<Outcome>;
}

/**
 * A periodic job run in one worker of many through its maintenance_jobs row (retention, the audit purge, the GitOps
 * reconcile): a LeaseLoop of one subject, claimed with a single-statement lease (no transaction held while it runs), so
 * a worker that died mid-run leaves it to another once the lease expires.
 */
export class MaintenanceJob<Outcome, Input = never> extends LeaseLoop<ClaimedJob<Outcome>, Outcome> {
  private readonly name: string;

  constructor(options: MaintenanceJobOptions<Outcome, Input>) {
    super({
      store: maintenanceJobStore(options.pool, options.name, options.everyMs, ready(options)),
      run: (job) => job.run(),
      maxInFlight: 1,
      renewEveryMs: (LEASE_SECONDS * 1000) / 4,
      pollMs: options.pollMs ?? 60_000,
      onError: options.onError,
    });
    this.name = options.name;
  }

  /** Runs the job if it is due and this worker got the lease: its outcome, or null when it did not run or threw. */
  async pass(): Promise<Outcome | null> {
    return (await this.runDue()).get(this.name) ?? null;
  }
}

/** The run to claim the job for, or null when it may not run yet. */
function ready<Outcome, Input>(work: MaintenanceJobWork<Outcome, Input>): () => Promise<(() => Promise<Outcome>) | null> {
  if (!('prepare' in work)) return () => Promise.resolve(work.run);
  const { prepare, run } = work;
  return async () => {
    const input = await prepare();
    return input === null ? null : () => run(input);
  };
}

function maintenanceJobStore<Outcome>(
  pool: pg.Pool,
  name: string,
  everyMs: number,
  ready: () => Promise<(() => Promise<Outcome>) | null>,
): LeaseStore<ClaimedJob<Outcome>, Outcome> {
  return {
    /** One subject, so the loop's room (at least one whenever it claims) is not needed. */
    async claim(_limit, owner) {
      const run = await ready();
      if (run === null) return [];
      const claimed = await pool.query(
        `update maintenance_jobs set lease_owner = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2)
          where name = $3 and next_runtime <= clock_timestamp()
            and (lease_expires_at is null or lease_expires_at < clock_timestamp())
         returning name`,
        [owner, LEASE_SECONDS, name],
      );
      return claimed.rowCount === 0 ? [] : [{ id: name, run }];
    },
    async renew(job, owner) {
      const result = await pool.query(
        `update maintenance_jobs set lease_expires_at = clock_timestamp() + make_interval(secs => $3) where name = $1 and lease_owner = $2`,
        [job.id, owner, LEASE_SECONDS],
      );
      return (result.rowCount ?? 0) > 0 ? null : new Error(`another worker took over the ${job.id} job`);
    },
    /** Due again a whole interval after this run, whether it succeeded or threw. */
    async release(job, _outcome, owner) {
      await pool.query(
        `update maintenance_jobs set next_runtime = clock_timestamp() + make_interval(secs => $3::double precision / 1000),
                lease_owner = null, lease_expires_at = null
          where name = $1 and lease_owner = $2`,
        [job.id, owner, everyMs],
      );
    },
  };
}
