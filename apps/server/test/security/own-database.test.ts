import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../../src/modules/health/check-scheduler';
import { runCheck, type CheckResult } from '../../src/modules/health/checkers/run-check';
import { resolveConnection } from '../../src/modules/connections/connection-store';
import { startPostgresTarget, type PostgresTarget } from '../fixtures/postgres-target';
import { allowLocalDatabases } from '../fixtures/local-databases';
import { startTestServer, type TestServer } from '../harness';

/** Hole 1 of issue #8: the query an editor saved to make themselves admin through the console's own database. */
const ATTACK = `insert into person_roles (person_id, role) select id, 'admin' from people where email = 'editor@opsdeck.local'; select 1`;
const REFUSED = /^Refusing to run a check (against|as a superuser of the PostgreSQL server that holds) Opsdeck's own database/;

describe("postgres checks and connection tests never run SQL in the console's own database", () => {
  let server: TestServer;
  let editor: string;
  let admin: string;
  let scratch: string;
  let target: PostgresTarget;
  let addresses: Array<{ label: string; url: string; plain: boolean }>;
  const previousRole = process.env.OPSDECK_ROLE;

  const run = (spec: Record<string, unknown>): Promise<CheckResult> =>
    runCheck('postgres', spec, {
      pool: server.pool,
      resolveConnection: (reference) => resolveConnection(server.pool, server.running.context.config.secretKey, reference),
    });

  async function editorIsAdmin(): Promise<boolean> {
    const result = await server.pool.query(
      `select 1 from person_roles r join people p on p.id = r.person_id where p.email = 'editor@opsdeck.local' and r.role = 'admin'`,
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** Every way this test can spell the address of the server's own database, each with what it exercises. */
  async function ownAddresses(): Promise<Array<{ label: string; url: string; plain: boolean }>> {
    if (server.running.context.db.mode === 'embedded') {
      const dir = String(server.pool.options.host);
      const linkedDir = path.join(scratch, 'symlinked');
      symlinkSync(dir, linkedDir);
      const hardLinked = mkdtempSync(path.join(scratch, 'hard-'));
      linkSync(path.join(dir, '.s.PGSQL.5432'), path.join(hardLinked, '.s.PGSQL.5432'));
      const socket = (folder: string): string => `postgres://postgres@${encodeURIComponent(folder)}/postgres`;
      return [
        { label: 'the embedded socket folder', url: socket(dir), plain: true },
        { label: 'the socket folder as a host parameter', url: `postgres://postgres@localhost/postgres?host=${dir}`, plain: true },
        { label: 'the socket folder spelled with . and ..', url: socket(`${dir}/../${path.basename(dir)}/.`), plain: true },
        { label: 'a symbolic link to the socket folder', url: socket(linkedDir), plain: true },
        { label: 'the socket folder through /proc/self/root', url: socket(`/proc/self/root${dir}`), plain: true },
        // Passes every path comparison: only the identity read over the connection can tell.
        { label: 'a hard link to the socket in another folder', url: socket(hardLinked), plain: false },
      ];
    }
    const own = new URL(String(server.pool.options.connectionString));
    const localhost = new URL(own);
    localhost.hostname = 'localhost';
    const socketDirs = await server.pool.query<{ unix_socket_directories: string }>('show unix_socket_directories');
    const socketDir = (socketDirs.rows[0]?.unix_socket_directories ?? '').split(',')[0]?.trim() ?? '';
    const viaSocket = `postgres://postgres@${encodeURIComponent(socketDir)}:${own.port}${own.pathname}`;
    const otherDatabase = new URL(own);
    otherDatabase.pathname = '/postgres';
    return [
      { label: 'DATABASE_URL as it is', url: own.toString(), plain: true },
      { label: 'localhost instead of 127.0.0.1', url: localhost.toString(), plain: true },
      { label: "the cluster's unix socket", url: viaSocket, plain: false },
      // Trust authentication lets anyone in as the superuser, who can reach every database of the server.
      { label: 'another database of the same server as its superuser', url: otherDatabase.toString(), plain: false },
    ];
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    admin = await server.cookieFor('admin');
    // Every address below is on this host: with local databases allowed, only the own-database guard stands in the way.
    await allowLocalDatabases(server);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-own-db-'));
    target = await startPostgresTarget();
    addresses = await ownAddresses();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await target.close();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("fails the editor's privilege-escalation check on every address of the console's database, and the query never runs", async () => {
    for (const { label, url } of addresses) {
      const result = await run({ name: 'escalate', url, query: ATTACK });
      expect(result.pass, label).toBe(false);
      expect(result.error, label).toMatch(REFUSED);
      expect(await editorIsAdmin(), label).toBe(false);
    }
  });

  it("refuses the check at save with a coded 400 when its URL plainly names the console's database", async () => {
    for (const { label, url } of addresses.filter((address) => address.plain)) {
      const saved = await server.call('POST', '/api/canary/canaries', editor, { name: 'escalate', spec: { postgres: [{ name: 'escalate', url, query: ATTACK }] } });
      expect(saved.status, label).toBe(400);
      expect(saved.json, label).toMatchObject({ code: 'OD_OWN_DATABASE', details: 'postgres[0].url' });
      const connection = await server.call('POST', '/api/canary/connections', admin, { name: 'own-db', type: 'postgres', url });
      expect(connection.status, label).toBe(400);
      expect(connection.json, label).toMatchObject({ code: 'OD_OWN_DATABASE' });
    }
  });

  it('records the refusal when the scheduler runs such a check that an editor saved, and the editor stays an editor', async () => {
    const hidden = addresses.find((address) => !address.plain);
    if (hidden === undefined) throw new Error('no address the save-time rule misses');
    const saved = await server.call('POST', '/api/canary/canaries', editor, { name: 'escalate-later', spec: { postgres: [{ name: 'escalate-later', url: hidden.url, query: ATTACK }] } });
    expect(saved.status, saved.text).toBe(201);
    const checkId = String((saved.json.checks as Array<{ id: string }>)[0]?.id);
    await server.pool.query(`update checks set next_runtime = case when id = $1 then now() else now() + interval '1 day' end`, [checkId]);
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus });
    await scheduler.runDue();
    const status = await server.pool.query<{ status: boolean; message: string }>('select status, message from check_statuses where check_id = $1', [checkId]);
    expect(status.rows).toEqual([{ status: false, message: expect.stringMatching(REFUSED) }]);
    expect(await editorIsAdmin()).toBe(false);
  });

  it("fails a connection test against the console's database with the same message", async () => {
    const [address] = addresses;
    const tested = await server.call('POST', '/api/canary/connection/test', admin, { type: 'postgres', url: address?.url });
    expect(tested.status).toBe(400);
    expect(tested.json).toMatchObject({ code: 'OD_CONNECTION_TEST_FAILED', message: expect.stringMatching(REFUSED) });
  });

  it('removes the embedded connection of an existing installation, with the untouched demo check that used it', async () => {
    const demoCheck = { name: 'database/checks-table', connection: 'connection://default/opsdeck-database', query: 'select 1 from checks limit 1', results: 1 };
    await server.pool.query(`insert into connections (name, type, username, properties) values ('opsdeck-database', 'postgres', 'postgres', '{"embedded": "true"}')`);
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('platform-basics', $1) returning id`, [
      JSON.stringify({ schedule: '@every 5m', postgres: [demoCheck], tcp: [{ name: 'kept', endpoint: '127.0.0.1:1' }] }),
    ]);
    const canaryId = canary.rows[0]?.id ?? '';
    await server.pool.query(`insert into checks (canary_id, type, name, spec) values ($1, 'postgres', 'database/checks-table', $2)`, [canaryId, JSON.stringify(demoCheck)]);

    await server.pool.query(readFileSync(new URL('../../src/db/migrations/0062_drop_embedded_connection.sql', import.meta.url), 'utf8'));

    const left = await server.pool.query(`select 1 from connections where properties->>'embedded' = 'true'`);
    expect(left.rowCount).toBe(0);
    const spec = await server.pool.query<{ spec: Record<string, unknown> }>('select spec from canaries where id = $1', [canaryId]);
    expect(Object.keys(spec.rows[0]?.spec ?? {}).sort()).toEqual(['schedule', 'tcp']);
    const live = await server.pool.query(`select 1 from checks where canary_id = $1 and type = 'postgres' and deleted_at is null`, [canaryId]);
    expect(live.rowCount).toBe(0);
  });

  describe('against an ordinary database', () => {
    it('refuses stacked statements, so the write before the select never runs', async () => {
      const result = await run({ name: 'stacked', url: target.url, query: 'insert into writes values (1); select 1' });
      expect(result).toMatchObject({ pass: false, error: expect.stringContaining('multiple commands') });
      expect(await target.writes()).toBe(0);
    });

    it('runs the query in a read-only transaction that SET TRANSACTION READ WRITE and its variants cannot reopen', async () => {
      const attempts = [
        'set transaction read write',
        "select set_config('transaction_read_only', 'off', true)",
        'insert into writes values (1)',
        'with written as (insert into writes values (1) returning 1) select * from written',
        'do $$ begin insert into writes values (1); end $$',
      ];
      for (const query of attempts) {
        const result = await run({ name: 'writes', url: target.url, query });
        expect(result.pass, query).toBe(false);
        expect(result.error, query).toMatch(/read-only transaction|read-write mode must be set before any query/);
      }
      expect(await target.writes()).toBe(0);
    });

    it('still counts the rows of a read-only query', async () => {
      const result = await run({ name: 'reads', url: target.url, query: 'select n from samples', results: 2 });
      expect(result).toMatchObject({ pass: true, message: expect.stringMatching(/^2 rows in \d+ms$/) });
    });
  });
});
