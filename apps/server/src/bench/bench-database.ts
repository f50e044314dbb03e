import path from 'node:path';
import type pg from 'pg';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { hashToken, newSessionToken, SESSION_COOKIE } from '../auth/shared/session-token';

/**
 * The benchmarks and the scale seed share one database: DATABASE_URL when set, otherwise an embedded one in
 * OPSDECK_BENCH_DIR (default .tmp/bench-data), kept between runs so `npm run seed:scale` is done once.
 */
export function benchDataDir(): string {
  return path.resolve(process.env.OPSDECK_BENCH_DIR ?? '.tmp/bench-data');
}

export async function openBenchDatabase(): Promise<Database> {
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: benchDataDir(), statementTimeoutMs: 0 });
  await migrate(db.pool);
  return db;
}

/** A viewer session for the benchmark's HTTP calls; the person is created once and reused. */
export async function benchSession(pool: pg.Pool): Promise<string> {
  const existing = await pool.query<{ id: string }>(`select id from people where email = 'bench@opsdeck.local'`);
  let id = existing.rows[0]?.id;
  if (id === undefined) {
    const person = await pool.query<{ id: string }>(`insert into people (name, email) values ('Bench Viewer', 'bench@opsdeck.local') returning id`);
    id = person.rows[0]?.id;
    if (id === undefined) throw new Error('could not create the bench user');
    await pool.query(`insert into identities (id, traits) values ($1, '{}')`, [id]);
    await pool.query(`insert into person_roles (person_id, role) values ($1, 'viewer')`, [id]);
  }
  const token = newSessionToken();
  await pool.query(`insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + interval '2 hours')`, [hashToken(token), id]);
  return `${SESSION_COOKIE}=${token}`;
}
