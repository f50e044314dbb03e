import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database, type DatabaseOptions } from '../src/db/database';
import { openMigrated } from '../src/db/open-migrated';

/**
 * The agent's own embedded database (ADR 0079): on a new data folder it is created and migrated, then opened again in
 * a fresh worker, so the memory creating it took goes with the first worker; an agent restarting on its folder opens
 * it once.
 */
describe.runIf(inject('dbMode') === 'pglite')("the agent's database", () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(inject('testRoot'), 'agent-db-'));
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('opens a new folder twice, migrating it in the first worker and serving from the second, and an existing one once', { timeout: 120_000 }, async () => {
    const opened: Database[] = [];
    const open = async (options: DatabaseOptions): Promise<Database> => {
      const db = await openDatabase(options);
      opened.push(db);
      return db;
    };
    const options: DatabaseOptions = { dataDir: dir, statementTimeoutMs: 60_000, sharedBuffers: '16MB' };

    const first = await openMigrated(options, { open });
    expect(opened).toHaveLength(2);
    expect(first).toBe(opened[1]);
    const migrated = await first.pool.query<{ version: string }>(`select max(version) as version from schema_migrations where version ~ '^[0-9]'`);
    expect((migrated.rows[0]?.version ?? '') >= '0125').toBe(true);
    await first.close();

    opened.length = 0;
    const again = await openMigrated(options, { open });
    expect(opened).toHaveLength(1);
    expect((await again.pool.query<{ n: number }>('select count(*)::int as n from agent_outbox')).rows[0]?.n).toBe(0);
    await again.close();
  });
});
