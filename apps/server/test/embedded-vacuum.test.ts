import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { vacuumDueTables } from '../src/db/embedded-vacuum';
import { startTestServer, type TestServer } from './harness';

/**
 * The embedded database has no autovacuum (ADR 0080): a worker reads the activity counters PostgreSQL keeps per table
 * and vacuums and analyzes what is past autovacuum's thresholds. The probe tables opt out of the real autovacuum, so
 * on PostgreSQL only these calls touch them.
 */

interface Activity {
  dead: number;
  vacuumed: boolean;
  analyzed: boolean;
}

async function churn(pool: pg.Pool, table: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`create table ${table} (id integer primary key, note text) with (autovacuum_enabled = false)`);
    await client.query(`insert into ${table} select g, 'row ' || g from generate_series(1, 5000) g`);
    await client.query(`delete from ${table} where id > 100`);
    // The counters reach the shared statistics when the connection reports them; this makes its next report a flush.
    await client.query('select pg_stat_force_next_flush()');
  } finally {
    client.release();
  }
}

async function activity(pool: pg.Pool, table: string): Promise<Activity> {
  const { rows } = await pool.query<{ dead: string; vacuumed: boolean; analyzed: boolean }>(
    `select n_dead_tup as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analyzed
       from pg_stat_user_tables where relname = $1`,
    [table],
  );
  const row = rows[0];
  return { dead: Number(row?.dead ?? 0), vacuumed: row?.vacuumed ?? false, analyzed: row?.analyzed ?? false };
}

describe('vacuuming the embedded database', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('vacuums and analyzes a table whose deleted rows passed the threshold, and leaves the others', async () => {
    await churn(server.pool, 'vacuum_probe_deleted');
    await expect.poll(async () => (await activity(server.pool, 'vacuum_probe_deleted')).dead, { timeout: 20_000 }).toBeGreaterThanOrEqual(4900);

    const done = await vacuumDueTables(server.pool);
    expect(done.find((work) => work.table === 'vacuum_probe_deleted')).toMatchObject({ vacuum: true, analyze: true });
    expect(done.every((work) => work.vacuum || work.analyze)).toBe(true);
    await expect.poll(() => activity(server.pool, 'vacuum_probe_deleted'), { timeout: 20_000 }).toEqual({ dead: 0, vacuumed: true, analyzed: true });

    // Nothing happened to it since: the next pass leaves it alone.
    expect((await vacuumDueTables(server.pool)).map((work) => work.table)).not.toContain('vacuum_probe_deleted');
  });
});

describe.runIf(inject('dbMode') === 'pglite')('a worker on the embedded database', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ workers: true, env: { OPSDECK_EMBEDDED_VACUUM_MS: '200' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('vacuums a table by itself once its deleted rows pass the threshold', async () => {
    await churn(server.pool, 'vacuum_probe_worker');
    await expect.poll(() => activity(server.pool, 'vacuum_probe_worker'), { timeout: 30_000 }).toEqual({ dead: 0, vacuumed: true, analyzed: true });
  });
});
