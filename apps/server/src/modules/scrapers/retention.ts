import type pg from 'pg';
import type { Retention } from './types';

/**
 * Spec 001 §3 retention for one scraper's items and their changes, applied after a run. Items are soft-deleted by the
 * created and updated ages, so they leave the catalog with a DELETE change like any other item gone; only items
 * deleted longer ago than the deleted age are removed for good, their changes and findings with them.
 */

const AGE = `make_interval(secs => $3::double precision / 1000)`;

const CHANGES_OLDER_THAN = `
delete from config_changes ch
 using config_items c
 where c.id = ch.config_id and c.scraper_id = $1 and ch.change_type = $2 and ch.created_at < now() - ${AGE}`;

/** Beyond the newest `count` changes of the type per item. */
const CHANGES_BEYOND_COUNT = `
delete from config_changes ch
 where ch.id in (select r.id
                   from (select x.id, row_number() over (partition by x.config_id order by x.created_at desc, x.id) as n
                           from config_changes x join config_items c on c.id = x.config_id
                          where c.scraper_id = $1 and x.change_type = $2) r
                  where r.n > $3)`;

function softDelete(column: 'created_at' | 'updated_at'): string {
  return `
with gone as (
  update config_items c
     set deleted_at = now(), delete_reason = 'Retention'
   where c.scraper_id = $1 and c.type = $2 and c.deleted_at is null and c.${column} < now() - ${AGE}
  returning c.id, c.source)
insert into config_changes (config_id, change_type, severity, source, summary)
select id, 'DELETE', 'info', source, 'Deleted: older than the scraper''s retention' from gone`;
}

const HARD_DELETE = `
delete from config_items c
 where c.scraper_id = $1 and c.type = $2 and c.deleted_at is not null and c.deleted_at < now() - ${AGE}`;

export async function applyRetention(
  pool: pg.Pool,
  scraperId: string,
  retention: Retention,
): Promise<{ changesDeleted: number; itemsDeleted: number }> {
  let changesDeleted = 0;
  let itemsDeleted = 0;
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local jit = off');
    for (const rule of retention.changes) {
      if (rule.maxAgeMs !== null) {
        changesDeleted += (await client.query(CHANGES_OLDER_THAN, [scraperId, rule.name, rule.maxAgeMs])).rowCount ?? 0;
      }
      if (rule.count !== null) {
        changesDeleted += (await client.query(CHANGES_BEYOND_COUNT, [scraperId, rule.name, rule.count])).rowCount ?? 0;
      }
    }
    for (const rule of retention.types) {
      if (rule.createdAgeMs !== null) {
        itemsDeleted += (await client.query(softDelete('created_at'), [scraperId, rule.name, rule.createdAgeMs])).rowCount ?? 0;
      }
      if (rule.updatedAgeMs !== null) {
        itemsDeleted += (await client.query(softDelete('updated_at'), [scraperId, rule.name, rule.updatedAgeMs])).rowCount ?? 0;
      }
      if (rule.deletedAgeMs !== null) {
        itemsDeleted += (await client.query(HARD_DELETE, [scraperId, rule.name, rule.deletedAgeMs])).rowCount ?? 0;
      }
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return { changesDeleted, itemsDeleted };
}
