import type pg from 'pg';
import { stringify } from 'yaml';

export interface CanaryRecord {
  id: string;
  name: string;
  namespace: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  schedule: string | null;
  source: string;
  agent_id: string | null;
  spec: Record<string, unknown>;
  /** The spec as the YAML editor shows it. */
  yaml: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  checks: { id: string; type: string; name: string; status: string | null }[];
}

export interface CanaryFields {
  name: string;
  namespace: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  schedule: string | null;
  spec: Record<string, unknown>;
}

type CanaryRow = Omit<CanaryRecord, 'yaml' | 'checks'>;
const COLUMNS = 'id, name, namespace, description, icon, labels, schedule, source, agent_id, spec, created_by, created_at, updated_at';

async function withChecks(pool: pg.Pool, row: CanaryRow): Promise<CanaryRecord> {
  const checks = await pool.query<{ id: string; type: string; name: string; status: string | null }>(
    'select id, type, name, status from checks where canary_id = $1 and deleted_at is null order by type, name',
    [row.id],
  );
  return { ...row, yaml: stringify(row.spec), checks: checks.rows };
}

export async function getCanary(pool: pg.Pool, id: string): Promise<CanaryRecord | null> {
  const result = await pool.query<CanaryRow>(`select ${COLUMNS} from canaries where id = $1 and deleted_at is null`, [id]);
  const row = result.rows[0];
  return row === undefined ? null : withChecks(pool, row);
}

export async function listCanaries(
  pool: pg.Pool,
  options: { limit: number; offset: number },
): Promise<{ data: (Omit<CanaryRow, 'spec'> & { checks_count: number })[]; total: number }> {
  const result = await pool.query<Omit<CanaryRow, 'spec'> & { checks_count: number; total: number }>(
    `select c.id, c.name, c.namespace, c.description, c.icon, c.labels, c.schedule, c.source, c.agent_id, c.created_by, c.created_at, c.updated_at,
            (select count(*) from checks k where k.canary_id = c.id and k.deleted_at is null)::integer as checks_count,
            count(*) over ()::integer as total
       from canaries c where c.deleted_at is null order by c.created_at desc, c.id limit $1 offset $2`,
    [options.limit, options.offset],
  );
  return { data: result.rows.map(({ total: _total, ...row }) => row), total: result.rows[0]?.total ?? 0 };
}

/** `id` is chosen by the caller: the spec's secrets are sealed for it before the row exists. */
export async function insertCanary(pool: pg.Pool, id: string, fields: CanaryFields, createdBy: string | null): Promise<void> {
  await pool.query(
    `insert into canaries (id, name, namespace, description, icon, labels, schedule, spec, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, fields.name, fields.namespace, fields.description, fields.icon, JSON.stringify(fields.labels), fields.schedule, JSON.stringify(fields.spec), createdBy],
  );
}

export async function updateCanary(pool: pg.Pool, id: string, fields: CanaryFields): Promise<boolean> {
  const result = await pool.query(
    `update canaries set name = $2, namespace = $3, description = $4, icon = $5, labels = $6, schedule = $7, spec = $8
      where id = $1 and deleted_at is null`,
    [id, fields.name, fields.namespace, fields.description, fields.icon, JSON.stringify(fields.labels), fields.schedule, JSON.stringify(fields.spec)],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function softDeleteCanary(pool: pg.Pool, id: string): Promise<boolean> {
  const result = await pool.query('update canaries set deleted_at = now() where id = $1 and deleted_at is null', [id]);
  return (result.rowCount ?? 0) > 0;
}

export async function canaryUpdatedAt(pool: pg.Pool, id: string): Promise<string | null> {
  const result = await pool.query<{ updated_at: string }>('select updated_at from canaries where id = $1', [id]);
  return result.rows[0]?.updated_at ?? null;
}
