import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

const DB_DIR = path.dirname(new URL(import.meta.url).pathname);
const MIGRATIONS_DIR = path.join(DB_DIR, 'migrations');
const VIEWS_DIR = path.join(DB_DIR, 'views');
const MIGRATION_LOCK = 7_404_111;
/**
 * The ledger row that says views/ was applied on top of every numbered migration: `views@<sha256 of the folder>`.
 * A migration deletes it in its own transaction, so a start that applied migrations but failed in views/ tries again.
 */
const VIEWS_VERSION_PREFIX = 'views@';

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort();
}

/** One file of views/: the current definition of the views and functions it creates. */
export interface ViewScript {
  file: string;
  sql: string;
  views: string[];
  functions: string[];
}

function definedNames(sql: string, pattern: RegExp): string[] {
  return [...sql.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The files of views/ in the order they are applied: a file reads only tables and what files before it create. */
export function viewScripts(): ViewScript[] {
  return readdirSync(VIEWS_DIR)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(VIEWS_DIR, file), 'utf8');
      return {
        file,
        sql,
        views: definedNames(sql, /^create view ([a-z_][a-z0-9_]*)/gm),
        functions: definedNames(sql, /^create or replace function ([a-z_][a-z0-9_]*)/gm),
      };
    });
}

/** The ledger version of views/ as it is on disk: a change to a file's name or text gives another. */
export function viewsVersion(scripts: readonly ViewScript[]): string {
  const hash = createHash('sha256');
  for (const script of scripts) hash.update(`${script.file}\0${script.sql}\0`);
  return `${VIEWS_VERSION_PREFIX}${hash.digest('hex')}`;
}

// What depends on a view of views/ — another view through its rule, a function through its row type — by name, so
// the drop below is known to reach only objects that views/ creates again.
const VIEW_DEPENDANTS_SQL = `
  select distinct v.relname as view, coalesce(dv.relname, p.proname, pg_describe_object(d.classid, d.objid, d.objsubid)) as dependant
    from pg_class v
    join pg_depend d on d.deptype = 'n'
     and ((d.refclassid = 'pg_class'::regclass and d.refobjid = v.oid) or (d.refclassid = 'pg_type'::regclass and d.refobjid = v.reltype))
    left join pg_rewrite r on d.classid = 'pg_rewrite'::regclass and r.oid = d.objid
    left join pg_class dv on dv.oid = r.ev_class
    left join pg_proc p on d.classid = 'pg_proc'::regclass and p.oid = d.objid
   where v.relnamespace = 'public'::regnamespace and v.relkind = 'v' and v.relname = any($1::text[])
     and (dv.oid is null or dv.oid <> v.oid)`;

/**
 * Recreates every view of views/ and replaces every function, in file order, in one transaction. Views are dropped
 * first (with what depends on them, which views/ also holds), so a view whose columns changed is rebuilt rather than
 * refused by `create or replace`; functions are replaced in place, keeping the triggers that call them.
 */
async function applyViews(client: pg.PoolClient, scripts: readonly ViewScript[], version: string): Promise<void> {
  const views = scripts.flatMap((script) => script.views);
  const owned = new Set([...views, ...scripts.flatMap((script) => script.functions)]);
  await client.query('begin');
  let current = '';
  try {
    const dependants = await client.query<{ view: string; dependant: string }>(VIEW_DEPENDANTS_SQL, [views]);
    const strangers = dependants.rows.filter((row) => !owned.has(row.dependant));
    if (strangers.length > 0) {
      const list = strangers.map((row) => `${row.dependant} (on ${row.view})`).join(', ');
      throw new Error(`${list} depend on views of views/ but are not defined there; move their definitions into views/`);
    }
    if (views.length > 0) await client.query(`drop view if exists ${views.map((name) => `"${name}"`).join(', ')} cascade`);
    for (const script of scripts) {
      current = script.file;
      await client.query(script.sql);
    }
    current = '';
    await client.query(`delete from schema_migrations where version like '${VIEWS_VERSION_PREFIX}%'`);
    await client.query('insert into schema_migrations (version) values ($1)', [version]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    const where = current === '' ? 'views/' : `views/${current}`;
    throw new Error(`${where} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface MigrateOptions {
  /** Apply views/ even when the ledger says this version of it is already in place. */
  reapplyViews?: boolean;
}

/**
 * Applies each numbered migration once, in order, each in its own transaction, then views/ whenever a migration ran
 * or views/ changed, all under one advisory lock. Returns the migrations applied and, when it was, the views/ version.
 */
export async function migrate(pool: pg.Pool, options: MigrateOptions = {}): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set((await client.query<{ version: string }>('select version from schema_migrations')).rows.map((r) => r.version));
    for (const file of migrationFiles()) {
      if (done.has(file)) continue;
      const sql = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('begin');
      try {
        await client.query(sql);
        await client.query('insert into schema_migrations (version) values ($1)', [file]);
        await client.query(`delete from schema_migrations where version like '${VIEWS_VERSION_PREFIX}%'`);
        await client.query('commit');
        applied.push(file);
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${file} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const scripts = viewScripts();
    const version = viewsVersion(scripts);
    if (options.reapplyViews === true || applied.length > 0 || !done.has(version)) {
      await applyViews(client, scripts, version);
      applied.push(version);
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}
