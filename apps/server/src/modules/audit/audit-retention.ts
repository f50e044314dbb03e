import type pg from 'pg';
import { RETENTION_DAYS_CEILING, RETENTION_DAYS_FLOOR } from '../../platform/admin-only-properties';
import { leaseOwner, PollLoop } from '../../platform/poll-loop';
import { insertAuditRows } from './audit-writer';

/**
 * The property (Feature Flags screen, admins only, or the local properties file) holding how many days audit rows are
 * kept: whole days from AUDIT_RETENTION_FLOOR_DAYS up, so one write can never make the next purge empty the log.
 */
export const AUDIT_RETENTION_PROPERTY = 'audit.retention.days';
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
export const AUDIT_RETENTION_FLOOR_DAYS = RETENTION_DAYS_FLOOR;

const JOB = 'audit_retention';
const DEFAULT_BATCH = 1000;
const RUN_EVERY_MS = 3_600_000;
const LEASE_MS = 600_000;

export async function readAuditRetentionDays(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ value: string | null }>('select value from properties where name = $1', [AUDIT_RETENTION_PROPERTY]);
  const parsed = Number(result.rows[0]?.value ?? '');
  // The API refuses other values (migration 0109); one from the properties file or older data falls back to the default.
  return Number.isInteger(parsed) && parsed >= AUDIT_RETENTION_FLOOR_DAYS && parsed <= RETENTION_DAYS_CEILING ? parsed : DEFAULT_AUDIT_RETENTION_DAYS;
}

/**
 * One batch of the purge, in its own short transaction: only a transaction that says `opsdeck.audit_purge = on` gets
 * past the append-only trigger (migration 0105), and it holds PGlite's one connection for milliseconds. Whatever
 * cutoff it is given, it leaves the rows of the last AUDIT_RETENTION_FLOOR_DAYS (by the database's clock) and the
 * records of earlier purges, which the trigger refuses to delete (migration 0109).
 */
async function purgeBatch(pool: pg.Pool, cutoff: string, batch: number): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('opsdeck.audit_purge', 'on', true)`);
    const result = await client.query(
      `delete from audit_log where id in (
         select id from audit_log
          where at < least($1::timestamptz, now() - make_interval(days => $3))
            and not (via = 'system' and action = 'purge')
          order by at limit $2)`,
      [cutoff, batch, AUDIT_RETENTION_FLOOR_DAYS],
    );
    await client.query('commit');
    return result.rowCount ?? 0;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface AuditPurgeOutcome {
  days: number;
  cutoff: string;
  deleted: number;
}

/**
 * Removes the rows older than the retention, then records that it did so in a row of the system's own, written after
 * the deletion and never deleted by a later purge.
 */
export async function purgeAuditLog(pool: pg.Pool, now = new Date(), batch = DEFAULT_BATCH): Promise<AuditPurgeOutcome> {
  const days = await readAuditRetentionDays(pool);
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const count = await purgeBatch(pool, cutoff, batch);
    deleted += count;
    if (count < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (deleted > 0) {
    await insertAuditRows(pool, [
      {
        at: new Date().toISOString(),
        actor_id: null,
        actor_name: 'system',
        via: 'system',
        api_token_id: null,
        method: 'DELETE',
        route: 'retention',
        resource: 'audit_log',
        resource_id: null,
        resource_ids: null,
        action: 'purge',
        changed_fields: [],
        changes: { before: cutoff, days, deleted },
        status: 200,
        request_id: null,
      },
    ]);
  }
  return { days, cutoff, deleted };
}

export interface AuditRetentionOptions {
  pool: pg.Pool;
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/** Runs the purge hourly in one worker of many, under the maintenance_jobs lease (as modules/events/retention.ts). */
export class AuditRetentionScheduler {
  private readonly owner = leaseOwner();
  private readonly loop: PollLoop;

  constructor(private readonly options: AuditRetentionOptions) {
    this.loop = new PollLoop({ pass: async () => void (await this.pass()), pollMs: options.pollMs ?? 60_000, onError: options.onError });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Purges if it is due and this worker got the lease; the outcome, or null when it did not run. */
  async pass(): Promise<AuditPurgeOutcome | null> {
    const pool = this.options.pool;
    const claimed = await pool.query(
      `update maintenance_jobs set lease_owner = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2::double precision / 1000)
        where name = $3 and next_runtime <= clock_timestamp()
          and (lease_expires_at is null or lease_expires_at < clock_timestamp())
       returning name`,
      [this.owner, LEASE_MS, JOB],
    );
    if (claimed.rowCount === 0) return null;
    try {
      return await purgeAuditLog(pool);
    } finally {
      await pool.query(
        `update maintenance_jobs set next_runtime = clock_timestamp() + make_interval(secs => $2::double precision / 1000),
                lease_owner = null, lease_expires_at = null
          where name = $3 and lease_owner = $1`,
        [this.owner, RUN_EVERY_MS, JOB],
      );
    }
  }
}
