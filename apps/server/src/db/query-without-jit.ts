import type pg from 'pg';

/**
 * Runs one statement in its own transaction with JIT off, and gives the connection back at once so queued requests
 * run next. The planner estimates grouped aggregates far above their real cost; past the JIT threshold PostgreSQL
 * then spends longer compiling the plan than running it.
 */
export async function queryWithoutJit<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  sql: string,
  values: unknown[],
  { readOnly }: { readOnly: boolean },
): Promise<R[]> {
  const client = await pool.connect();
  try {
    await client.query(readOnly ? 'begin read only; set local jit = off' : 'begin; set local jit = off');
    const result = await client.query<R>(sql, values);
    await client.query('commit');
    return result.rows;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
