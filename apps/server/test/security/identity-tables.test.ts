import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@opsdeck/shared';
import { throttleHashes } from '../../src/auth/shared/login-throttle';
import { schemaCacheFor } from '../../src/data-api/data-api-plugin';
import { csrfOf, TestBrowser } from '../auth-client';
import { TEST_SECRET_KEY } from '../global-setup';
import { startTestServer, type JsonReply, type TestServer } from '../harness';

/**
 * The identity and security families, written out here on their own rather than imported from resource-map.ts, so
 * that the test and the rule can disagree: sessions, credentials, sign-in state, tokens and secrets, identity flows,
 * recovery and verification, throttling, the identity service's own `identity_` tables and the migration ledger.
 */
const FAMILY =
  /session|credential|login|logout|password|passwd|token|secret|throttl|rate_?limit|api_?key|lockout|recovery|verification|webauthn|totp|csrf|(^|_)(auth|oauth|oidc|mfa|otp|flows?)(_|$)|^identity_|migrations$/;

/** Tables a later migration might add; none is listed anywhere, so only a rule can keep them unreachable. */
const NEW_MACHINERY_SQL = `
  create table personal_access_tokens (
    id uuid primary key default gen_random_uuid(),
    person_id uuid not null references people (id) on delete cascade,
    token_hash text not null
  );
  create table identity_recovery_codes (
    id uuid primary key default gen_random_uuid(),
    identity_id uuid not null references identities (id) on delete cascade,
    code text not null
  );
  create table login_rate_limits (address text primary key, hits int not null default 0);
  create table totp_secrets (identity_id uuid primary key references identities (id) on delete cascade, secret text not null);
  create table verification_flows (id uuid primary key default gen_random_uuid(), identity_id uuid references identities (id));
  create view active_sessions as select id, identity_id, expires_at from sessions where active;
  create function session_count() returns int language sql stable as 'select count(*)::int from sessions';
  create function login_failure_rows() returns setof login_failures language sql stable as 'select * from login_failures';
  insert into personal_access_tokens (person_id, token_hash) select id, 'hash-of-' || id from people;
  insert into login_rate_limits values ('203.0.113.1', 3);
`;

const CSRF_MARKER = { 'x-requested-with': 'opsdeck-security-test' };

function expectRefused(reply: JsonReply, what: string): void {
  expect(reply.status, `${what}: ${reply.text}`).toBe(403);
  expect(reply.json.code, what).toBe('42501');
}

describe('identity and security tables through the data API', () => {
  let server: TestServer;
  const cookies = new Map<Role, string>();
  let relations: { name: string; column: string }[] = [];
  let functions: string[] = [];

  const cookie = (role: Role): string => cookies.get(role) ?? '';
  const call = (role: Role, method: string, url: string, body?: unknown): Promise<JsonReply> =>
    server.call(method, url, cookie(role), body, CSRF_MARKER);

  async function rowCounts(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const { name } of relations) {
      const result = await server.pool.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
      counts.set(name, result.rows[0]?.n ?? 0);
    }
    return counts;
  }

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(NEW_MACHINERY_SQL);
    await schemaCacheFor(server.running.context.db)?.reload();
    for (const role of ROLES) cookies.set(role, await server.cookieFor(role));

    const found = await server.pool.query<{ name: string; column: string }>(
      `select t.table_name as name,
              (select c.column_name from information_schema.columns c
                where c.table_schema = t.table_schema and c.table_name = t.table_name order by c.ordinal_position limit 1) as column
         from information_schema.tables t
        where t.table_schema = 'public'
        order by t.table_name`,
    );
    relations = found.rows.filter((row) => FAMILY.test(row.name));
    const routines = await server.pool.query<{ name: string }>(
      `select distinct p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
    );
    functions = routines.rows.map((row) => row.name).filter((name) => FAMILY.test(name));
  });
  afterAll(async () => {
    await server.close();
  });

  it('finds the machinery it is meant to guard, old and new', () => {
    const names = relations.map((relation) => relation.name);
    for (const expected of [
      'login_failures',
      'sessions',
      'identity_credentials',
      'self_service_flows',
      'schema_migrations',
      'api_tokens',
      'personal_access_tokens',
      'identity_recovery_codes',
      'login_rate_limits',
      'totp_secrets',
      'verification_flows',
      'active_sessions',
    ]) {
      expect(names).toContain(expected);
    }
    expect(functions).toEqual(expect.arrayContaining(['session_count', 'login_failure_rows']));
  });

  it('refuses every role, admin included, a read, insert, update or delete of any of them, and changes no row', async () => {
    const before = await rowCounts();
    for (const { name, column } of relations) {
      for (const role of ROLES) {
        expectRefused(await call(role, 'GET', `/api/db/${name}?select=*`), `${role} GET ${name}`);
        expectRefused(await call(role, 'POST', `/api/db/${name}`, { [column]: null }), `${role} POST ${name}`);
        expectRefused(await call(role, 'PATCH', `/api/db/${name}?${column}=not.is.null`, { [column]: null }), `${role} PATCH ${name}`);
        expectRefused(await call(role, 'DELETE', `/api/db/${name}?${column}=not.is.null`), `${role} DELETE ${name}`);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses every role a call of any function of the machinery', async () => {
    for (const name of functions) {
      for (const role of ROLES) {
        const get = await call(role, 'GET', `/api/db/rpc/${name}`);
        expect(get.status, `${role} GET rpc ${name}`).toBe(403);
        const post = await call(role, 'POST', `/api/db/rpc/${name}`, {});
        expect(post.status, `${role} POST rpc ${name}`).toBe(403);
      }
    }
  });

  it('refuses a call of a machinery function that does not exist, or is a trigger function, the same way as one that does', async () => {
    for (const name of ['purge_sessions_everywhere', 'end_sessions_of_identity']) {
      const reply = await call('admin', 'POST', `/api/db/rpc/${name}`, {});
      expect(reply.status, `rpc ${name}`).toBe(403);
    }
  });

  it('refuses to embed any of them from a table the role may read, or to filter through one', async () => {
    for (const { name } of relations) {
      for (const [role, root] of [
        ['viewer', 'people'],
        ['admin', 'people'],
        ['admin', 'identities'],
      ] as const) {
        for (const query of [`select=id,${name}(*)`, `select=id,${name}!inner(*)`, `select=id,${name}!inner()&${name}.id=not.is.null`]) {
          const reply = await call(role, 'GET', `/api/db/${root}?${query}`);
          // 403 when a foreign key joins them, PGRST200 when none does: either way nothing is read.
          expect([400, 403], `${role} ${root}?${query}: ${reply.text}`).toContain(reply.status);
          expect(Array.isArray(reply.json), `${role} ${root}?${query}`).toBe(false);
        }
      }
    }
  });

  it('keeps a view that reads an identity table out of reach, whatever it is called', async () => {
    const views = await server.pool.query<{ view: string; table: string }>(
      `select view_name as view, table_name as table from information_schema.view_table_usage where view_schema = 'public'`,
    );
    const guarded = new Set(relations.map((relation) => relation.name));
    for (const { view, table } of views.rows) {
      if (!guarded.has(table)) continue;
      expect(guarded.has(view), `view ${view} reads ${table}`).toBe(true);
      expectRefused(await call('admin', 'GET', `/api/db/${view}?select=*`), `admin GET ${view}`);
    }
  });

  it('stops the attacks of issue 8: viewer reading, editor locking the admin out or lifting a lockout', async () => {
    const hashes = throttleHashes(TEST_SECRET_KEY);
    const b = new TestBrowser(server.url);
    const flow = await b.startLogin();
    const failed = await b.submitJson(flow, { method: 'password', identifier: 'nobody-real@opsdeck.local', password: 'wrong', csrf_token: csrfOf(flow) });
    expect(failed.status).toBe(400);

    expectRefused(await call('viewer', 'GET', '/api/db/login_failures?select=identifier_hash,failed_at'), 'viewer read');
    expectRefused(await call('admin', 'GET', '/api/db/login_failures?select=*'), 'admin read');

    const lockout = Array.from({ length: 20 }, () => ({ identifier_hash: hashes.identifier('admin@opsdeck.local'), address_hash: hashes.address('127.0.0.1') }));
    expectRefused(await call('editor', 'POST', '/api/db/login_failures', lockout), 'editor insert');
    expect((await new TestBrowser(server.url).signIn('admin@opsdeck.local', 'opsdeck-demo')).status).toBe(200);

    const rowsBefore = (await server.pool.query<{ n: number }>('select count(*)::int as n from login_failures')).rows[0]?.n ?? 0;
    expect(rowsBefore).toBeGreaterThan(0);
    expectRefused(await call('editor', 'DELETE', '/api/db/login_failures?failed_at=not.is.null'), 'editor delete');
    expect((await server.pool.query<{ n: number }>('select count(*)::int as n from login_failures')).rows[0]?.n).toBe(rowsBefore);
  });

  it('stores a keyed hash of the identifier, not its plain SHA-256, even when a password was typed into it', async () => {
    const typedPassword = 'correct horse battery staple';
    const b = new TestBrowser(server.url);
    const flow = await b.startLogin();
    expect((await b.submitJson(flow, { method: 'password', identifier: typedPassword, password: 'x', csrf_token: csrfOf(flow) })).status).toBe(400);

    const stored = await server.pool.query<{ identifier_hash: string; address_hash: string }>('select identifier_hash, address_hash from login_failures');
    const identifierHashes = stored.rows.map((row) => row.identifier_hash);
    const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
    expect(identifierHashes).not.toContain(sha256(typedPassword));
    expect(identifierHashes).not.toContain(sha256('nobody-real@opsdeck.local'));
    expect(identifierHashes).toContain(throttleHashes(TEST_SECRET_KEY).identifier(typedPassword));
    expect(stored.rows.map((row) => row.address_hash)).not.toContain(sha256('127.0.0.1'));
  });
});
