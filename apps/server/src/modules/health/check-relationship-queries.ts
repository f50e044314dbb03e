import type pg from 'pg';

export interface CheckRelationships {
  configs: { id: string; name: string; type: string }[];
  components: { id: string; name: string; icon: string | null }[];
}

/** The catalog items and components a check is linked to, for its detail; the first 500 of each by name. */
export async function loadRelationships(pool: pg.Pool, checkId: string): Promise<CheckRelationships> {
  const configs = await pool.query<{ id: string; name: string; type: string }>(
    `select ci.id, ci.name, ci.type from check_config_relationships r join config_items ci on ci.id = r.config_id
      where r.check_id = $1 and r.deleted_at is null order by ci.name limit 500`,
    [checkId],
  );
  const components = await pool.query<{ id: string; name: string; icon: string | null }>(
    `select co.id, co.name, co.icon from check_component_relationships r join components co on co.id = r.component_id
      where r.check_id = $1 and r.deleted_at is null order by co.name limit 500`,
    [checkId],
  );
  return { configs: configs.rows, components: components.rows };
}
