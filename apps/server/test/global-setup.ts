import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { seedDemo } from '../src/seed/demo';

declare module 'vitest' {
  export interface ProvidedContext {
    dbMode: 'pglite' | 'postgres';
    templateDir: string;
    /** The seeded template as PGlite's data-directory tarball, which each suite loads into memory. */
    templateTarball: string;
    testRoot: string;
    postgresAdminUrl: string;
  }
}

export const TEMPLATE_DB = 'opsdeck_template';
/** The key every test server uses, so secrets seeded into the template decrypt in each suite. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

/**
 * Builds one migrated and seeded template per run; every suite then clones it (a copied data folder for PGlite,
 * CREATE DATABASE … TEMPLATE for PostgreSQL) instead of migrating again.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mode = process.env.OPSDECK_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  // One folder per run, so that two runs on the same machine never remove each other's databases.
  const root = path.resolve(`.tmp/server-tests/run-${process.pid}`);
  project.provide('testRoot', root);
  const adminUrl = process.env.OPSDECK_TEST_PG_URL ?? '';
  project.provide('dbMode', mode);
  project.provide('postgresAdminUrl', adminUrl);
  if (mode === 'pglite') {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const templateDir = path.join(root, 'template');
    const db = await openDatabase({ dataDir: templateDir, statementTimeoutMs: 30000 });
    try {
      await migrate(db.pool);
      await seedDemo(db.pool, { secretKey: TEST_SECRET_KEY, serverUrl: 'http://127.0.0.1:9' });
    } finally {
      await db.close();
    }
    project.provide('templateDir', templateDir);
    const tarball = path.join(root, 'template.tar');
    const template = await PGlite.create(path.join(templateDir, 'pgdata'));
    try {
      writeFileSync(tarball, Buffer.from(await (await template.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
    } finally {
      await template.close();
    }
    project.provide('templateTarball', tarball);
    return async () => rmSync(root, { recursive: true, force: true });
  }
  if (adminUrl === '') throw new Error('OPSDECK_TEST_DB=postgres needs OPSDECK_TEST_PG_URL (an admin connection URL)');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${TEMPLATE_DB}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: root, statementTimeoutMs: 30000 });
  try {
    await migrate(db.pool);
    await seedDemo(db.pool, { secretKey: TEST_SECRET_KEY, serverUrl: 'http://127.0.0.1:9' });
  } finally {
    await db.close();
  }
  project.provide('templateDir', '');
  project.provide('templateTarball', '');
  return async () => undefined;
}
