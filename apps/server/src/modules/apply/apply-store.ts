import type pg from 'pg';
import type { ApplyKind } from './apply-documents';

/** A live row an apply may reach by kind, namespace and name. */
export interface ExistingRow {
  id: string;
  source: string;
  digest: string | null;
}

/** The live row of that kind, namespace and name (the oldest, should the table allow two), with its last applied digest. */
export async function findExisting(pool: pg.Pool, kind: ApplyKind, namespace: string, name: string): Promise<ExistingRow | null> {
  const result = await pool.query<ExistingRow>(
    `select t.id, t.source, a.digest from ${kind.table} t
       left join apply_state.applied_resources a on a.table_name = $3 and a.row_id = t.id
      where t.namespace = $1 and t.name = $2 and t.deleted_at is null
      order by t.created_at limit 1`,
    [namespace, name, kind.table],
  );
  return result.rows[0] ?? null;
}

export interface AppliedRow {
  id: string;
  namespace: string;
  name: string;
}

/** Live rows of a kind that an apply of this source made: what --prune may remove. */
export async function rowsOfSource(pool: pg.Pool, kind: ApplyKind, source: string): Promise<AppliedRow[]> {
  const result = await pool.query<AppliedRow>(`select id, namespace, name from ${kind.table} where source = $1 and deleted_at is null order by namespace, name`, [source]);
  return result.rows;
}

const columnCache = new Map<string, ReadonlyMap<string, string>>();

/** The table's columns and their types, so only columns are written whatever keys a kind's save transform adds. */
export async function columnsOf(pool: pg.Pool | pg.PoolClient, table: string): Promise<ReadonlyMap<string, string>> {
  const cached = columnCache.get(table);
  if (cached !== undefined) return cached;
  const result = await pool.query<{ column_name: string; data_type: string }>(
    `select column_name, data_type from information_schema.columns where table_schema = 'public' and table_name = $1`,
    [table],
  );
  const columns = new Map(result.rows.map((row) => [row.column_name, row.data_type]));
  columnCache.set(table, columns);
  return columns;
}

/** A value as pg binds it to its column: arrays to array columns, sealed bytes as bytes, other objects as JSON. */
function bound(value: unknown, type: string | undefined): unknown {
  if (Buffer.isBuffer(value) || (type === 'ARRAY' && Array.isArray(value))) return value;
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
}

/**
 * Inserts the row, or updates it in place when `update`; column names come from the table's own columns (columnsOf),
 * every value is a bound parameter.
 */
export async function writeRow(client: pg.PoolClient, table: string, columns: ReadonlyMap<string, string>, row: Record<string, unknown>, update: boolean): Promise<void> {
  const entries = Object.entries(row).filter(([column]) => column !== 'id');
  const values = entries.map(([column, value]) => bound(value, columns.get(column)));
  const quoted = entries.map(([column]) => `"${column}"`);
  if (update) {
    const sets = quoted.map((column, i) => `${column} = $${i + 2}`).join(', ');
    await client.query(`update ${table} set ${sets}, updated_at = now() where id = $1`, [row.id, ...values]);
    return;
  }
  const placeholders = quoted.map((_, i) => `$${i + 2}`).join(', ');
  await client.query(`insert into ${table} (id, ${quoted.join(', ')}) values ($1, ${placeholders})`, [row.id, ...values]);
}

export async function recordDigest(client: pg.PoolClient, table: string, id: string, source: string, digest: string): Promise<void> {
  await client.query(
    `insert into apply_state.applied_resources (table_name, row_id, source, digest) values ($1, $2, $3, $4)
     on conflict (table_name, row_id) do update set source = excluded.source, digest = excluded.digest, applied_at = now()`,
    [table, id, source, digest],
  );
}

/** Soft-deletes a row --prune removes and forgets its digest. */
export async function softDelete(client: pg.PoolClient, table: string, id: string): Promise<void> {
  await client.query(`update ${table} set deleted_at = now() where id = $1 and deleted_at is null`, [id]);
  await client.query('delete from apply_state.applied_resources where table_name = $1 and row_id = $2', [table, id]);
}
