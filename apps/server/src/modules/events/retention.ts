import { hostname } from 'node:os';
import type pg from 'pg';
import { MaintenanceJob, type MaintenanceJobSettings } from '../../platform/maintenance-job';

/** Property names (Feature Flags screen or the local properties file) holding each age in days, and their defaults. */
export const RETENTION_PROPERTIES = {
  jobHistoryDays: { property: 'retention.job_history.days', fallback: 30 },
  eventQueueDays: { property: 'retention.event_queue.days', fallback: 7 },
  checkStatusesDays: { property: 'retention.check_statuses.days', fallback: 90 },
} as const;

export type RetentionAges = Record<keyof typeof RETENTION_PROPERTIES, number>;

export interface RetentionOutcome {
  ages: RetentionAges;
  deleted: { job_history: number; event_queue: number; check_statuses: number };
}

/** Small enough that one delete holds PGlite's single connection for milliseconds, not seconds. */
const DEFAULT_BATCH = 1000;
const RUN_EVERY_MS = 3_600_000;

export async function readRetentionAges(pool: pg.Pool): Promise<RetentionAges> {
  const entries = Object.entries(RETENTION_PROPERTIES) as Array<[keyof typeof RETENTION_PROPERTIES, { property: string; fallback: number }]>;
  const result = await pool.query<{ name: string; value: string | null }>('select name, value from properties where name = any ($1::text[])', [
    entries.map(([, setting]) => setting.property),
  ]);
  const values = new Map(result.rows.map((row) => [row.name, row.value]));
  const ages = {} as RetentionAges;
  for (const [key, setting] of entries) {
    const parsed = Number(values.get(setting.property) ?? '');
    ages[key] = Number.isFinite(parsed) && parsed > 0 ? parsed : setting.fallback;
  }
  return ages;
}

/** Deletes in batches until a batch comes back short, giving other queries the connection between batches. */
async function deleteInBatches(pool: pg.Pool, sql: string, cutoff: Date, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await pool.query(sql, [cutoff.toISOString(), batch]);
    const count = result.rowCount ?? 0;
    total += count;
    if (count < batch) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * 86_400_000);

/** One cleanup: prunes the three tables by their configured ages and records the run in job_history. */
export async function runRetention(pool: pg.Pool, now = new Date(), batch = DEFAULT_BATCH): Promise<RetentionOutcome> {
  const started = new Date();
  const ages = await readRetentionAges(pool);
  try {
    const deleted = {
      job_history: await deleteInBatches(
        pool,
        `delete from job_history where id in (select id from job_history where created_at < $1 and status <> 'RUNNING' limit $2)`,
        daysBefore(now, ages.jobHistoryDays),
        batch,
      ),
      event_queue: await deleteInBatches(
        pool,
        `delete from event_queue where id in (select id from event_queue where created_at < $1 limit $2)`,
        daysBefore(now, ages.eventQueueDays),
        batch,
      ),
      check_statuses: await deleteInBatches(
        pool,
        `delete from check_statuses where ctid = any (array(select ctid from check_statuses where time < $1 limit $2))`,
        daysBefore(now, ages.checkStatusesDays),
        batch,
      ),
    };
    await recordRun(pool, started, 'SUCCESS', deleted.job_history + deleted.event_queue + deleted.check_statuses, { summary: { ages, deleted } });
    return { ages, deleted };
  } catch (error) {
    await recordRun(pool, started, 'FAILED', 0, { errors: [error instanceof Error ? error.message : String(error)] });
    throw error;
  }
}

async function recordRun(pool: pg.Pool, started: Date, status: 'SUCCESS' | 'FAILED', count: number, details: object): Promise<void> {
  const ended = new Date();
  await pool.query(
    `insert into job_history (name, resource_type, status, success_count, error_count, duration_millis, hostname, time_start, time_end, details)
     values ('RetentionCleanup', 'retention', $1, $2, $3, $4, $5, $6, $7, $8)`,
    [status, count, status === 'FAILED' ? 1 : 0, ended.getTime() - started.getTime(), hostname(), started.toISOString(), ended.toISOString(), JSON.stringify(details)],
  );
}

/** Runs the cleanup hourly in one worker of many, under its maintenance_jobs lease. */
export class RetentionScheduler extends MaintenanceJob<RetentionOutcome> {
  constructor(settings: MaintenanceJobSettings) {
    super({ ...settings, name: 'retention', everyMs: RUN_EVERY_MS, run: () => runRetention(settings.pool) });
  }
}
