import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app';
import type { Database } from '../src/db/database';
import { loadConfig } from '../src/platform/config';

/**
 * The server on a new embedded data folder (ADR 0079): it creates, migrates and seeds the database in a first worker
 * and serves from a second one. The seed runs once per start either way, and what it wrote is there after the reopen.
 */
describe.runIf(inject('dbMode') === 'pglite')('a server starting on a new embedded data folder', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(inject('testRoot'), 'first-start-'));
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('seeds once, in the worker that migrated, analyzes it and serves what it seeded; a restart seeds once again on the same data', { timeout: 120_000 }, async () => {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', OPSDECK_ROLE: 'api' }, { databaseUrl: undefined, dataDir: dir, port: 0 });
    const seedings: string[] = [];
    const seed = async (db: Database): Promise<void> => {
      const existing = await db.pool.query<{ n: number }>(`select count(*)::int as n from teams where name like 'first-start-%'`);
      seedings.push(`seen ${existing.rows[0]?.n ?? 0}`);
      if ((existing.rows[0]?.n ?? 0) === 0) await db.pool.query(`insert into teams (name) values ('first-start-team')`);
    };

    const first = await createApp(config, { seed, logger: false });
    try {
      expect(seedings).toEqual(['seen 0']);
      const teams = await first.context.db.pool.query<{ name: string }>(`select name from teams where name like 'first-start-%'`);
      expect(teams.rows.map((row) => row.name)).toEqual(['first-start-team']);
      // Analyzed before the reopen: a table never analyzed has reltuples -1.
      const analyzed = await first.context.db.pool.query<{ reltuples: number }>(`select reltuples from pg_class where relname = 'teams'`);
      expect(analyzed.rows[0]?.reltuples).toBeGreaterThanOrEqual(1);
    } finally {
      await first.close();
    }

    const again = await createApp(config, { seed, logger: false });
    await again.close();
    expect(seedings).toEqual(['seen 0', 'seen 1']);
  });
});
