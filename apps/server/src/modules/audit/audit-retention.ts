import type pg from 'pg';
import { RETENTION_DAYS_CEILING, RETENTION_DAYS_FLOOR } from '../../platform/admin-only-properties';
import { MaintenanceJob, type MaintenanceJobSettings } from '../../platform/maintenance-job';
import { insertAuditRows } from './audit-writer';

/**
 * The property (Feature Flags screen, admins only, or the local properties file) holding how many days audit rows are
 * kept: whole days from AUDIT_RETENTION_FLOOR_DAYS up, so one write can never make the next purge empty the log.
 */
export const AUDIT_RETENTION_PROPERTY = 'audit.retention.days';
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
export const AUDIT_RETENTION_FLOOR_DAYS = RETENTION_DAYS_FLOOR;

const DEFAULT_BATCH = 1000;
const RUN_EVERY_MS = 3_600_000;

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

/** Runs the purge hourly in one worker of many, under its maintenance_jobs lease. */
export class AuditRetentionScheduler extends MaintenanceJob<AuditPurgeOutcome> {
  constructor(settings: MaintenanceJobSettings) {
    super({ ...settings, name: 'audit_retention', everyMs: RUN_EVERY_MS, run: () => purgeAuditLog(settings.pool) });
  }
}
