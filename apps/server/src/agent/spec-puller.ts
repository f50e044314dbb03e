import type pg from 'pg';
import type { SpecsReply } from '../modules/agent-push/protocol';

/**
 * Copies the canaries and scrapers upstream assigns to this agent into the agent's database, keyed by upstream's id
 * (upstream_id), as rows of "this server" so the ordinary schedulers run them. Unchanged rows are not written, so the
 * schedulers, which follow updated_at, do not rerun them; copies upstream no longer lists are soft-deleted.
 */
export async function applySpecs(pool: pg.Pool, specs: SpecsReply): Promise<{ changed: number }> {
  let changed = 0;
  for (const table of ['canaries', 'config_scrapers'] as const) {
    const rows = table === 'canaries' ? specs.canaries : specs.scrapers;
    const upserted = await pool.query(
      `insert into ${table} as t (upstream_id, name, namespace, description, labels, spec, schedule, source)
       select r.id, r.name, r.namespace, r.description, r.labels, r.spec, r.schedule, 'Upstream'
         from jsonb_to_recordset($1::jsonb) r(id uuid, name text, namespace text, description text, labels jsonb, spec jsonb, schedule text)
       on conflict (upstream_id) where upstream_id is not null do update
          set name = excluded.name, namespace = excluded.namespace, description = excluded.description,
              labels = excluded.labels, spec = excluded.spec, schedule = excluded.schedule, deleted_at = null
        where (t.name, t.namespace, t.description, t.labels, t.spec, t.schedule, t.deleted_at)
              is distinct from (excluded.name, excluded.namespace, excluded.description, excluded.labels, excluded.spec,
                                excluded.schedule, null::timestamptz)`,
      [JSON.stringify(rows)],
    );
    const removed = await pool.query(
      `update ${table} set deleted_at = now() where upstream_id is not null and deleted_at is null and upstream_id <> all($1::uuid[])`,
      [rows.map((row) => row.id)],
    );
    changed += (upserted.rowCount ?? 0) + (removed.rowCount ?? 0);
  }
  return { changed };
}
