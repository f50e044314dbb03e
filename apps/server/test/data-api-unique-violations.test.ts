import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../src/data-api/api-errors';
import { schemaCacheFor } from '../src/data-api/data-api-plugin';
import { fromUniqueViolation } from '../src/platform/errors';
import { startTestServer, type TestServer } from './harness';

/**
 * Issue #9: a duplicate showed PostgreSQL's 'duplicate key value violates unique constraint "properties_pkey"'. A unique
 * violation is a 409 whose message names what is taken, from the data API and from domain routes alike.
 */

const TOKEN_HASH = 'a11ce5b0b0c0ffee0123456789abcdef0123456789abcdef0123456789abcdef';

describe('unique violations are a 409 naming the field', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a duplicate feature flag with a sentence naming it, keeping the PostgREST code', async () => {
    const first = await server.call('POST', '/api/db/properties', admin, { name: 'dup.flag', value: 'true' });
    expect(first.status).toBe(201);
    const again = await server.call('POST', '/api/db/properties', admin, { name: 'dup.flag', value: 'false' });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      code: '23505',
      message: 'A feature flag named "dup.flag" already exists',
      details: 'Key (name)=(dup.flag) already exists.',
      hint: 'Choose another name, or change the existing feature flag',
    });
    expect(again.text).not.toContain('properties_pkey');
  });

  it('answers a duplicate agent name through the data API with a 409 naming the agent', async () => {
    expect((await server.call('POST', '/api/db/agents', admin, { name: 'dup-agent' })).status).toBe(201);
    const again = await server.call('POST', '/api/db/agents', admin, { name: 'dup-agent' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: '23505', message: 'An agent named "dup-agent" already exists' });
  });

  it('lists every column of a composite key, and names the column an expression index reads', async () => {
    const connection = { name: 'dup-connection', type: 'postgres' };
    expect((await server.call('POST', '/api/db/connections', admin, connection)).status).toBe(201);
    const again = await server.call('POST', '/api/db/connections', admin, connection);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: '23505', message: 'A connection with this namespace and name already exists' });

    expect((await server.call('POST', '/api/db/people', admin, { name: 'Dup One', email: 'dup.person@example.com' })).status).toBe(201);
    const person = await server.call('POST', '/api/db/people', admin, { name: 'Dup Two', email: 'DUP.person@example.com' });
    expect(person.status).toBe(409);
    expect(person.json).toMatchObject({ code: '23505', message: 'A person with this email already exists', hint: 'Choose another email, or change the existing person' });
  });

  it('neither names nor quotes a hidden column that is part of the key', async () => {
    await server.pool.query(`insert into agents (name, access_token_hash) values ('hidden-1', $1)`, [TOKEN_HASH]);
    const rejection = await server.pool
      .query(`insert into agents (name, access_token_hash) values ('hidden-2', $1)`, [TOKEN_HASH])
      .then(() => null, (error: unknown) => error);
    expect(JSON.stringify(rejection)).toContain(TOKEN_HASH.slice(0, 12));
    const cache = schemaCacheFor(server.running.context.db);
    const viaDataApi = fromDatabaseError(rejection, (index) => cache?.uniqueIndexes.get(index) ?? null);
    const viaRoute = fromUniqueViolation(rejection);
    for (const mapped of [viaDataApi, viaRoute]) {
      expect(mapped?.toBody()).toEqual({ code: '23505', message: 'An agent with these values already exists', details: null, hint: null });
      expect(JSON.stringify(mapped?.toBody())).not.toContain('access_token');
    }
  });

  it('answers a unique violation raised inside a domain route with the same 409 instead of a 500', async () => {
    await server.pool.query(`create unique index dup_canaries_name_key on canaries (name) where deleted_at is null`);
    const canary = { name: 'dup-canary', spec: { http: [{ name: 'dup-http', url: 'http://127.0.0.1:9/' }] } };
    expect((await server.call('POST', '/api/canary/canaries', admin, canary)).status).toBeLessThan(300);
    const again = await server.call('POST', '/api/canary/canaries', admin, canary);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      code: '23505',
      message: 'A canary named "dup-canary" already exists',
      details: 'Key (name)=(dup-canary) already exists.',
      hint: 'Choose another name, or change the existing canary',
    });
  });
});
