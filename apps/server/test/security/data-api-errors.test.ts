import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../../src/data-api/api-errors';
import { schemaCacheFor } from '../../src/data-api/data-api-plugin';
import type { Relation } from '../../src/data-api/schema-cache';
import { JSON_DEPTH_LIMIT } from '../../src/platform/json-depth';
import { startTestServer, type TestServer } from '../harness';

/**
 * Hardening items of issue #8: client mistakes that answered 500 (writes to views PostgreSQL cannot update, JSON
 * nested thousands of levels deep) are coded 4xx, and a constraint violation never quotes a hidden column's value.
 */

const NO_BODY = { 'x-requested-with': 'opsdeck-test' };
const TOKEN_HASH = 'f00dfeedcafe0123456789abcdef0123456789abcdef0123456789abcdef0123';
const PASSWORD_CIPHERTEXT = Buffer.from('v1:sealed-password-ciphertext-that-must-stay-hidden');

function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

function readOnlyViews(server: TestServer): Relation[] {
  const cache = schemaCacheFor(server.running.context.db);
  if (cache === undefined) throw new Error('no schema cache');
  return [...cache.relations.values()].filter((relation) => relation.kind === 'view' && !relation.writable.insert && !relation.writable.update && !relation.writable.delete);
}

describe('client errors of the data API are coded 4xx that leak nothing', () => {
  let server: TestServer;
  let admin: string;
  let agentId: string;
  let connectionId: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    const agent = await server.pool.query<{ id: string }>(`insert into agents (name, hostname, access_token_hash) values ('sec-agent', 'host-1', $1) returning id`, [TOKEN_HASH]);
    agentId = agent.rows[0]?.id ?? '';
    const connection = await server.pool.query<{ id: string }>(
      `insert into connections (name, type, url, username, password_encrypted) values ('sec-connection', 'postgres', 'postgres://db:5432/x', 'app', $1) returning id`,
      [PASSWORD_CIPHERTEXT],
    );
    connectionId = connection.rows[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  function leaksNothing(text: string): void {
    expect(text).not.toContain(TOKEN_HASH.slice(0, 12));
    expect(text).not.toContain(PASSWORD_CIPHERTEXT.toString('hex').slice(0, 12));
    expect(text).not.toContain('sealed-password');
    expect(text).not.toMatch(/failing row/i);
  }

  it('answers 405 naming the view to POST, PATCH and DELETE on each of the views that cannot be written', async () => {
    const views = readOnlyViews(server);
    expect(views.length).toBeGreaterThanOrEqual(23);
    const wrong: string[] = [];
    for (const view of views) {
      const column = [...view.columns.keys()][0] ?? 'id';
      for (const [method, body] of [['POST', { [column]: null }], ['PATCH', { [column]: null }], ['DELETE', undefined]] as const) {
        const reply = await server.call(method, `/api/db/${view.name}?${column}=is.null`, admin, body, body === undefined ? NO_BODY : {});
        const ok = reply.status === 405 && reply.json.code === 'PGRST117' && String(reply.json.message).includes(`'${view.name}'`);
        if (!ok) wrong.push(`${method} ${view.name} answered ${reply.status} ${reply.text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('tells which methods a read-only view takes, and refuses a merging upsert on one', async () => {
    const response = await fetch(`${server.url}/api/db/people_roles?id=is.null`, { method: 'DELETE', headers: { cookie: admin, ...NO_BODY } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    const upsert = await server.call('POST', '/api/db/incidents_by_component', admin, { id: null }, { prefer: 'resolution=merge-duplicates' });
    expect(upsert.status).toBe(405);
  });

  it('still writes through a view PostgreSQL can update', async () => {
    const reply = await server.call('PATCH', '/api/db/component_names?id=eq.00000000-0000-0000-0000-000000000000', admin, { name: 'nothing matches' });
    expect(reply.status).toBe(204);
  });

  it('answers a JSON body nested 5,000 levels with a coded 400, on the data API and on domain routes', async () => {
    const deep = nested(5000);
    const attempts: Array<[string, string, string]> = [
      ['POST', '/api/db/evidences', `{"description":"deep","evidence":${deep}}`],
      ['PATCH', `/api/db/agents?id=eq.${agentId}`, `{"properties":${deep}}`],
      ['POST', '/api/db/rpc/related_configs_recursive', `{"config_id":${deep}}`],
      ['POST', '/api/canary/canaries', `{"name":"deep","spec":{"http":${deep}}}`],
      ['PATCH', `/api/agents/${agentId}`, `{"settings":${deep}}`],
    ];
    for (const [method, url, body] of attempts) {
      const response = await fetch(`${server.url}${url}`, { method, headers: { cookie: admin, 'content-type': 'application/json' }, body });
      expect(response.status, `${method} ${url}`).toBe(400);
      expect(await response.json(), `${method} ${url}`).toMatchObject({ code: 'OD_JSON_DEPTH', details: `The limit is ${JSON_DEPTH_LIMIT} levels of arrays and objects` });
    }
    const before = await server.pool.query('select properties from agents where id = $1', [agentId]);
    expect(before.rows[0]).toEqual({ properties: {} });
  });

  it('accepts a body nested exactly to the limit', async () => {
    const body = `{"properties":{"x":${nested(JSON_DEPTH_LIMIT - 2)}}}`;
    const reply = await fetch(`${server.url}/api/db/agents?id=eq.${agentId}`, { method: 'PATCH', headers: { cookie: admin, 'content-type': 'application/json' }, body });
    expect(reply.status).toBe(204);
  });

  it('drops the failing row from a not-null violation on an agent and on a connection', async () => {
    for (const url of [`/api/db/agents?id=eq.${agentId}`, `/api/db/connections?id=eq.${connectionId}`]) {
      const reply = await server.call('PATCH', url, admin, { name: null });
      expect(reply.status, url).toBe(400);
      expect(reply.json).toMatchObject({ code: '23502', details: null });
      leaksNothing(reply.text);
    }
  });

  it('drops the failing row from a check violation on an agent and on a connection', async () => {
    await server.pool.query(`alter table agents add constraint sec_hostname_short check (length(hostname) < 40) not valid`);
    await server.pool.query(`alter table connections add constraint sec_url_short check (length(url) < 40) not valid`);
    for (const [url, body] of [
      [`/api/db/agents?id=eq.${agentId}`, { hostname: 'h'.repeat(50) }],
      [`/api/db/connections?id=eq.${connectionId}`, { url: `postgres://${'h'.repeat(50)}` }],
    ] as const) {
      const reply = await server.call('PATCH', url, admin, body);
      expect(reply.status, url).toBe(400);
      expect(reply.json).toMatchObject({ code: '23514', details: null });
      leaksNothing(reply.text);
    }
  });

  it('drops the key of a unique violation on a hidden column and keeps it for a visible one', async () => {
    const rejection = await server.pool
      .query(`insert into agents (name, access_token_hash) values ('sec-agent-2', $1)`, [TOKEN_HASH])
      .then(() => null, (error: unknown) => error);
    expect(rejection).toMatchObject({ code: '23505' });
    expect(JSON.stringify(rejection)).toContain(TOKEN_HASH.slice(0, 12));
    const mapped = fromDatabaseError(rejection);
    expect(mapped).toMatchObject({ statusCode: 409, code: '23505', details: null });
    leaksNothing(JSON.stringify(mapped?.toBody()));

    const duplicateAgent = await server.call('POST', '/api/db/agents', admin, { name: 'sec-agent' });
    expect(duplicateAgent.status).toBe(409);
    expect(duplicateAgent.json).toMatchObject({ code: '23505', details: 'Key (name)=(sec-agent) already exists.' });
    const duplicateConnection = await server.call('POST', '/api/db/connections', admin, { name: 'sec-connection', type: 'postgres' });
    expect(duplicateConnection.status).toBe(409);
    expect(duplicateConnection.json).toMatchObject({ code: '23505', details: 'Key (namespace, name)=(default, sec-connection) already exists.' });
    leaksNothing(duplicateConnection.text);
  });

  it('leaves the stored secrets unchanged by every refused write', async () => {
    const stored = await server.pool.query<{ hash: string; password: Buffer }>(
      `select a.access_token_hash as hash, c.password_encrypted as password from agents a, connections c where a.id = $1 and c.id = $2`,
      [agentId, connectionId],
    );
    expect(stored.rows[0]?.hash).toBe(TOKEN_HASH);
    expect(stored.rows[0]?.password.equals(PASSWORD_CIPHERTEXT)).toBe(true);
  });
});
