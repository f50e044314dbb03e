import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { migrate, migrationFiles, viewScripts, viewsVersion } from '../src/db/migrate';
import { cloneDatabase } from './harness';

/** The last migration applied by the runner that knew no views/: databases that ran it are the ones to upgrade. */
const LAST_MIGRATION_BEFORE_VIEWS = '0115_exec_guard_request_roles.sql';

interface CatalogDump {
  views: { name: string; definition: string; columns: string }[];
  functions: { name: string; definition: string }[];
  triggers: string[];
}

/** Every view (definition and typed columns, as the data API's schema cache reads them), function and trigger. */
async function dumpCatalog(pool: pg.Pool): Promise<CatalogDump> {
  const views = await pool.query<CatalogDump['views'][number]>(
    `select c.relname as name, pg_get_viewdef(c.oid) as definition,
            (select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum)
               from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
       from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'v' order by 1`,
  );
  const functions = await pool.query<CatalogDump['functions'][number]>(
    `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name, pg_get_functiondef(p.oid) as definition
       from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind <> 'a' order by 1`,
  );
  const triggers = await pool.query<{ definition: string }>(
    `select pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal order by 1`,
  );
  return { views: views.rows, functions: functions.rows, triggers: triggers.rows.map((row) => row.definition) };
}

/** A new, empty database of the run's kind: a data folder of its own for PGlite, a database of the cluster otherwise. */
async function emptyDatabase(): Promise<{ open(): Promise<Database>; dispose(): Promise<void> }> {
  if (inject('dbMode') === 'pglite') {
    const dir = mkdtempSync(path.join(inject('testRoot'), 'views-'));
    return {
      open: () => openDatabase({ dataDir: dir, statementTimeoutMs: 60000 }),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `opsdeck_views_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    open: () => openDatabase({ databaseUrl: url.toString(), dataDir: '.tmp', statementTimeoutMs: 60000 }),
    dispose: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** What the runner did before views/ existed: each numbered file once, in order, recorded in the ledger. */
async function migrateWithoutViews(pool: pg.Pool, last: string): Promise<void> {
  await pool.query('create table schema_migrations (version text primary key, applied_at timestamptz not null default now())');
  for (const file of migrationFiles().filter((name) => name <= last)) {
    const sql = readFileSync(new URL(`../src/db/migrations/${file}`, import.meta.url), 'utf8');
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(sql);
      await client.query('insert into schema_migrations (version) values ($1)', [file]);
      await client.query('commit');
    } finally {
      client.release();
    }
  }
}

async function viewOids(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ oid: string }>(
    `select c.oid::text as oid from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'v' order by c.relname`,
  );
  return rows.map((row) => row.oid);
}

describe('views/ applied after the numbered migrations', () => {
  const version = viewsVersion(viewScripts());
  let fresh: Awaited<ReturnType<typeof cloneDatabase>>;
  let freshDump: CatalogDump;
  let upgraded: Awaited<ReturnType<typeof emptyDatabase>>;
  const opened: Database[] = [];

  beforeAll(async () => {
    fresh = await cloneDatabase();
    freshDump = await dumpCatalog(fresh.db.pool);
    upgraded = await emptyDatabase();
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await fresh.dispose();
    await upgraded.dispose();
  });

  it('leaves a database migrated before views/ existed, started by several processes at once, as a fresh one', async () => {
    const first = await upgraded.open();
    opened.push(first);
    await migrateWithoutViews(first.pool, LAST_MIGRATION_BEFORE_VIEWS);
    // PostgreSQL: one pool per process, as separate servers would have. PGlite serves one process, whose pool
    // holds its single connection, so there the starts queue in that pool.
    const pools = [first.pool];
    if (inject('dbMode') === 'postgres') {
      for (let i = 0; i < 2; i++) {
        const db = await upgraded.open();
        opened.push(db);
        pools.push(db.pool);
      }
    } else {
      pools.push(first.pool, first.pool);
    }
    const results = await Promise.all(pools.map((pool) => migrate(pool)));
    const later = migrationFiles().filter((file) => file > LAST_MIGRATION_BEFORE_VIEWS);
    expect(results.flat().sort()).toEqual([...later, version].sort());
    const ledger = await first.pool.query<{ version: string }>(`select version from schema_migrations where version like 'views@%'`);
    expect(ledger.rows.map((row) => row.version)).toEqual([version]);
    expect(await dumpCatalog(first.pool)).toEqual(freshDump);
  });

  it('re-applies to the same schema, and a start with nothing new leaves the views untouched', async () => {
    const pool = fresh.db.pool;
    expect(await migrate(pool, { reapplyViews: true })).toEqual([version]);
    expect(await migrate(pool, { reapplyViews: true })).toEqual([version]);
    expect(await dumpCatalog(pool)).toEqual(freshDump);
    const before = await viewOids(pool);
    expect(await migrate(pool)).toEqual([]);
    expect(await viewOids(pool)).toEqual(before);
  });

  it('refuses to drop a view of views/ that something defined elsewhere depends on, and changes nothing', async () => {
    const pool = fresh.db.pool;
    await pool.query('create view planted_on_configs as select id from configs');
    await expect(migrate(pool, { reapplyViews: true })).rejects.toThrow(/planted_on_configs \(on configs\)/);
    const left = await pool.query<{ n: number }>(
      `select count(*)::integer as n from pg_class where relname in ('configs', 'config_search_results', 'planted_on_configs')`,
    );
    expect(left.rows[0]?.n).toBe(3);
    await pool.query('drop view planted_on_configs');
  });
});
