import { mkdtempSync, rmSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../../src/modules/health/check-scheduler';
import { runCheck, type CheckResult } from '../../src/modules/health/checkers/run-check';
import { createConnection, resolveConnection } from '../../src/modules/connections/connection-store';
import { isLocalAddress } from '../../src/modules/connections/probes/local-database';
import { runSqlSource } from '../../src/modules/scrapers/sources/sql';
import type { SourceContext } from '../../src/modules/scrapers/types';
import { allowLocalDatabases } from '../fixtures/local-databases';
import { startPostgresTarget, type PostgresTarget } from '../fixtures/postgres-target';
import { startTestServer, type TestServer } from '../harness';

/**
 * Hole 10 of issue #31: an editor's SQL check reached the embedded database socket of another process on the same
 * host, and any PostgreSQL listening on 127.0.0.1. Such targets are refused at save and at run unless an admin sets
 * security.database.allow_local; the own-database guard keeps refusing this instance's database either way.
 */
const LOCAL_REFUSED = /^Refusing to connect to a database on Opsdeck's own host/;
const OWN_REFUSED = /^Refusing to run a check (against|as a superuser of the PostgreSQL server that holds) Opsdeck's own database/;
const ATTACK = 'select datname from pg_catalog.pg_database';

interface Address {
  label: string;
  url: string;
  /** The URL says it is local without a lookup, so saving it is refused too. */
  plain: boolean;
}

/** Another Opsdeck's embedded database, as the attack found it: a PGlite served on a unix socket in its own folder. */
async function startSocketNeighbour(): Promise<{ dir: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-neighbour-'));
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, path: path.join(dir, '.s.PGSQL.5432'), maxConnections: 4 });
  await server.start();
  return {
    dir,
    async close() {
      await server.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("SQL checks, SQL scrapers and connection tests never reach a database on the server's own host unless an admin allows it", () => {
  let server: TestServer;
  let editor: string;
  let admin: string;
  let target: PostgresTarget;
  let neighbour: Awaited<ReturnType<typeof startSocketNeighbour>>;
  let addresses: Address[];

  const run = (type: 'postgres' | 'mysql', spec: Record<string, unknown>): Promise<CheckResult> =>
    runCheck(type, spec, {
      pool: server.pool,
      resolveConnection: (reference) => resolveConnection(server.pool, server.running.context.config.secretKey, reference),
    });

  const scrape = (url: string) => {
    const context: SourceContext = {
      scraperId: '00000000-0000-4000-8000-000000000000',
      pool: server.pool,
      secretKey: server.running.context.config.secretKey,
      roots: [],
      ownDatabaseUrl: server.pool.options.connectionString ?? null,
      signal: new AbortController().signal,
    };
    return runSqlSource({ kind: 'sql', index: 0, spec: { url, query: ATTACK, id: '$.datname', type: 'Database::Name' } }, context);
  };

  const saveCheck = (name: string, check: Record<string, unknown>, type: 'postgres' | 'mysql' = 'postgres') =>
    server.call('POST', '/api/canary/canaries', editor, { name, spec: { [type]: [{ name, query: 'select 1', ...check }] } });

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    admin = await server.cookieFor('admin');
    target = await startPostgresTarget();
    neighbour = await startSocketNeighbour();
    const loopback = new URL(target.url);
    const localhost = new URL(target.url);
    localhost.hostname = 'localhost';
    const named = new URL(target.url);
    // The machine's own name resolves to a loopback address or to one of its interfaces: either is this host.
    named.hostname = os.hostname();
    const resolved = await lookup(os.hostname(), { all: true });
    if (!resolved.some((entry) => isLocalAddress(entry.address))) throw new Error(`${os.hostname()} does not resolve to an address of this host`);
    addresses = [
      { label: "another process's embedded database socket", url: `postgres://postgres@${encodeURIComponent(neighbour.dir)}/postgres`, plain: true },
      { label: 'the test PostgreSQL at 127.0.0.1', url: loopback.toString(), plain: true },
      { label: 'the test PostgreSQL at localhost', url: localhost.toString(), plain: true },
      { label: 'a host name that resolves to this host', url: named.toString(), plain: false },
    ];
  });
  afterAll(async () => {
    await neighbour.close();
    await target.close();
    await server.close();
  });

  it("refuses the editor's postgres check at save with OD_LOCAL_DATABASE when the URL plainly names this host", async () => {
    for (const { label, url } of addresses.filter((address) => address.plain)) {
      const saved = await saveCheck('reach-local', { url });
      expect(saved.status, label).toBe(400);
      expect(saved.json, label).toMatchObject({ code: 'OD_LOCAL_DATABASE', details: 'postgres[0].url', hint: expect.stringContaining('security.database.allow_local') });
    }
    const mysql = await saveCheck('reach-local-mysql', { url: 'mysql://root@127.0.0.1:3306/mysql' }, 'mysql');
    expect(mysql.json).toMatchObject({ code: 'OD_LOCAL_DATABASE', details: 'mysql[0].url' });
    const socket = await saveCheck('reach-local-mysql-socket', { url: 'mysql://root@db.example.test/mysql?socketPath=/run/mysqld/mysqld.sock' }, 'mysql');
    expect(socket.json).toMatchObject({ code: 'OD_LOCAL_DATABASE' });
  });

  it('fails every such check when it runs, before connecting, whether the URL says it or a name resolves to it', async () => {
    for (const { label, url } of addresses) {
      const result = await run('postgres', { name: 'reach-local', url, query: ATTACK });
      expect(result.pass, label).toBe(false);
      expect(result.error, label).toMatch(LOCAL_REFUSED);
    }
    const mysql = await run('mysql', { name: 'reach-local-mysql', url: 'mysql://root@127.0.0.1:3306/mysql', query: 'select 1' });
    expect(mysql.error).toMatch(LOCAL_REFUSED);
  });

  it('records the refusal when the scheduler runs a saved check whose host name resolves to this host', async () => {
    const named = addresses.find((address) => !address.plain);
    if (named === undefined) throw new Error('no address the save-time rule lets through');
    const saved = await saveCheck('reach-local-later', { url: named.url, query: ATTACK });
    expect(saved.status, saved.text).toBe(201);
    const checkId = String((saved.json.checks as Array<{ id: string }>)[0]?.id);
    await server.pool.query(`update checks set next_runtime = case when id = $1 then now() else now() + interval '1 day' end`, [checkId]);
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus });
    await scheduler.runDue();
    const status = await server.pool.query<{ status: boolean; message: string }>('select status, message from check_statuses where check_id = $1', [checkId]);
    expect(status.rows).toEqual([{ status: false, message: expect.stringMatching(LOCAL_REFUSED) }]);
  });

  it("refuses a check that names an admin's stored connection on this host when it runs", async () => {
    await createConnection(server.pool, server.running.context.config.secretKey, { name: 'local-target', type: 'postgres', url: target.url }, null);
    const saved = await saveCheck('through-connection', { connection: 'connection://default/local-target' });
    expect(saved.status, saved.text).toBe(201);
    const result = await run('postgres', { name: 'through-connection', connection: 'connection://default/local-target', query: ATTACK });
    expect(result.error).toMatch(LOCAL_REFUSED);
  });

  it('refuses an SQL scraper at save and at run, and a connection test, on the same addresses', async () => {
    for (const { label, url, plain } of addresses) {
      const saved = await server.call('POST', '/api/db/config_scrapers', editor, { name: 'reach-local', spec: { sql: [{ url, query: ATTACK, id: '$.datname', type: 'Database::Name' }] } });
      if (plain) expect(saved.json, label).toMatchObject({ code: 'OD_LOCAL_DATABASE', details: 'spec.sql[0].url' });
      const result = await scrape(url);
      expect(result.items, label).toEqual([]);
      expect(result.errors, label).toEqual([{ where: 'sql[0]', message: expect.stringMatching(LOCAL_REFUSED) }]);
      const tested = await server.call('POST', '/api/canary/connection/test', admin, { type: 'postgres', url });
      expect(tested.status, label).toBe(400);
      expect(tested.json, label).toMatchObject({ code: 'OD_CONNECTION_TEST_FAILED', message: expect.stringMatching(LOCAL_REFUSED) });
    }
  });

  describe('once an admin sets security.database.allow_local', () => {
    beforeAll(async () => {
      await allowLocalDatabases(server);
    });

    it('saves and runs the same checks, scrapers and connection tests', async () => {
      for (const [index, { label, url }] of addresses.entries()) {
        const saved = await saveCheck(`allowed-${index}`, { url });
        expect(saved.status, `${label}: ${saved.text}`).toBe(201);
        const result = await run('postgres', { name: 'allowed', url, query: 'select 1' });
        expect(result, label).toMatchObject({ pass: true, message: expect.stringMatching(/^1 row in \d+ms$/) });
        const scraped = await scrape(url);
        expect(scraped.errors, label).toEqual([]);
        const tested = await server.call('POST', '/api/canary/connection/test', admin, { type: 'postgres', url });
        expect(tested.json, label).toMatchObject({ message: 'ok' });
      }
    });

    it("still refuses this instance's own database", async () => {
      const own =
        server.running.context.db.mode === 'embedded'
          ? `postgres://postgres@${encodeURIComponent(String(server.pool.options.host))}/postgres`
          : String(server.pool.options.connectionString);
      const saved = await saveCheck('own', { url: own });
      expect(saved.json).toMatchObject({ code: 'OD_OWN_DATABASE' });
      const result = await run('postgres', { name: 'own', url: own, query: ATTACK });
      expect(result.error).toMatch(OWN_REFUSED);
    });
  });
});
