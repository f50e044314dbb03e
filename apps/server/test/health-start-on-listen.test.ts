import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/platform/config';
import { TEST_SECRET_KEY } from './global-setup';
import { cloneDatabase } from './harness';

async function statusesSince(pool: pg.Pool, since: string): Promise<number> {
  const result = await pool.query<{ n: number }>('select count(*)::int as n from check_statuses where created_at > $1', [since]);
  return result.rows[0]?.n ?? 0;
}

describe('check scheduler start', () => {
  it('waits until the server listens when the caller listens, so a check probing the console never finds it closed', async () => {
    const { db, dispose } = await cloneDatabase();
    const config = loadConfig(
      { ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'all' },
      { dataDir: inject('testRoot'), secretKey: TEST_SECRET_KEY, databaseUrl: undefined, port: 0, host: '127.0.0.1' },
    );
    const since = (await db.pool.query<{ now: string }>('select now()::text as now')).rows[0]?.now ?? '';
    await db.pool.query(
      `insert into canaries (name, schedule, spec) values ('start-on-listen', '@every 1h', $1)`,
      [JSON.stringify({ schedule: '@every 1h', tcp: [{ name: 'start-on-listen/closed', endpoint: '127.0.0.1:1', thresholdMillis: 500 }] })],
    );
    const running = await createApp(config, { db, logger: false, listens: true });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await statusesSince(db.pool, since)).toBe(0);
      await running.app.listen({ port: 0, host: '127.0.0.1' });
      const deadline = Date.now() + 20_000;
      while ((await statusesSince(db.pool, since)) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await statusesSince(db.pool, since)).toBeGreaterThan(0);
    } finally {
      await running.close();
      await db.close();
      await dispose();
    }
  }, 40_000);
});
