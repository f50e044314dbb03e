import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationEnabled, REGISTRATION_PROPERTY } from '../../src/auth/registration/registration-setting';
import { PUBLIC_URL_PROPERTY } from '../../src/modules/notifications/notification-engine';
import { ADMIN_ONLY_PROPERTY_PREFIXES, isAdminOnlyProperty } from '../../src/platform/admin-only-properties';
import { startTestServer, type TestServer } from '../harness';
import { callWithToken, createApiToken } from '../audit-support';

/**
 * Hole 4 of issue #31: an editor turned on public registration (an outsider then signed up and read data) and pointed
 * every notification's "Open in Opsdeck" link at their own site. Properties that decide who can get in, where links
 * and messages point, which guards apply and how long records are kept are written by admins alone, whichever write
 * path of /api/db is taken.
 */

const ATTACKER_URL = 'https://opsdeck.attacker.example';
const UPSERT = { prefer: 'resolution=merge-duplicates,return=representation' };

/** The keys the server reads today, and one made-up key under every admin-only prefix. */
const ADMIN_ONLY_KEYS = [
  REGISTRATION_PROPERTY,
  PUBLIC_URL_PROPERTY,
  'audit.retention.days',
  'security.database.allow_local',
  ...ADMIN_ONLY_PROPERTY_PREFIXES.map((prefix) => `${prefix}example`),
];

/** What a write may leave behind: the value, and the name it is stored under. */
async function stored(server: TestServer, name: string): Promise<string | null> {
  const result = await server.pool.query<{ value: string }>('select value from properties where name = $1', [name]);
  return result.rows[0]?.value ?? null;
}

/** A property put in place by the server itself, as an admin or the properties file would have. */
async function seed(server: TestServer, name: string, value: string): Promise<void> {
  await server.pool.query(`insert into properties (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value`, [name, value]);
}

const valueFor = (name: string): string => (name.endsWith('.days') ? '30' : name === REGISTRATION_PROPERTY ? 'true' : ATTACKER_URL);

describe('security properties are written by admins alone', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    await seed(server, PUBLIC_URL_PROPERTY, 'https://opsdeck.example.com');
    await seed(server, REGISTRATION_PROPERTY, 'false');
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses an editor who turns on public registration, and registration stays closed', async () => {
    const patched = await server.call('PATCH', `/api/db/properties?name=eq.${REGISTRATION_PROPERTY}`, editor, { value: 'true' });
    expect(patched.status).toBe(403);
    expect(patched.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY', details: REGISTRATION_PROPERTY });
    expect(await stored(server, REGISTRATION_PROPERTY)).toBe('false');
    expect(await registrationEnabled(server.pool, false)).toBe(false);
  });

  it("refuses an editor who points notifications' links at their own URL", async () => {
    const patched = await server.call('PATCH', `/api/db/properties?name=eq.${PUBLIC_URL_PROPERTY}`, editor, { value: ATTACKER_URL });
    expect(patched.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY', details: PUBLIC_URL_PROPERTY });
    expect(await stored(server, PUBLIC_URL_PROPERTY)).toBe('https://opsdeck.example.com');
  });

  it.each(ADMIN_ONLY_KEYS)('refuses an editor every write path to %s', async (name) => {
    await server.pool.query('delete from properties where name = $1', [name]);
    const created = await server.call('POST', '/api/db/properties', editor, { name, value: valueFor(name) });
    expect(created.status).toBe(403);
    expect(created.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY', details: name });
    const upserted = await server.call('POST', '/api/db/properties', editor, [{ name: 'ordinary.batch', value: '1' }, { name, value: valueFor(name) }], UPSERT);
    expect(upserted.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY' });
    expect(await stored(server, name)).toBeNull();
    expect(await stored(server, 'ordinary.batch')).toBeNull();

    await seed(server, name, 'set by an admin');
    const writes = [
      ['PATCH', `/api/db/properties?name=eq.${name}`, { value: valueFor(name) }],
      ['PATCH', `/api/db/properties?name=eq.${name}`, { description: 'harmless, but still not theirs' }],
      ['PATCH', `/api/db/properties?name=like.${name.slice(0, 4)}*`, { value: valueFor(name) }],
      ['PATCH', `/api/db/properties?name=eq.${name}`, { name: 'ordinary.renamed' }],
      ['POST', '/api/db/properties', { name, value: valueFor(name) }],
      ['DELETE', `/api/db/properties?name=eq.${name}`, undefined],
    ] as const;
    for (const [method, url, body] of writes) {
      const reply = await server.call(method, url, editor, body, method === 'POST' ? UPSERT : {});
      expect(reply.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(403);
      expect(reply.json.code).toBe('OD_PROPERTY_ADMIN_ONLY');
    }
    expect(await stored(server, name)).toBe('set by an admin');
  });

  it('refuses an editor who renames an ordinary property into an admin-only one, whatever its letter case', async () => {
    await seed(server, 'ordinary.flag', 'true');
    for (const name of [REGISTRATION_PROPERTY, 'Identity.Registration.Enabled', 'PUBLIC.URL']) {
      const renamed = await server.call('PATCH', '/api/db/properties?name=eq.ordinary.flag', editor, { name });
      expect(renamed.json, name).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY' });
    }
    expect(await stored(server, 'ordinary.flag')).toBe('true');
  });

  it('refuses an administrator’s own API token that was given the editor role', async () => {
    await seed(server, REGISTRATION_PROPERTY, 'false');
    const token = await createApiToken(server, admin, 'editor', 'editor-scoped script');
    expect(token.status).toBe(201);
    const reply = await callWithToken(server, token.token, 'PATCH', `/api/db/properties?name=eq.${REGISTRATION_PROPERTY}`, { value: 'true' });
    expect(reply.json).toMatchObject({ code: 'OD_PROPERTY_ADMIN_ONLY' });
    expect(await stored(server, REGISTRATION_PROPERTY)).toBe('false');
  });

  it('lets an editor write ordinary feature flags by every path', async () => {
    expect((await server.call('POST', '/api/db/properties', editor, { name: 'incidents.disable.test', value: 'false' })).status).toBe(201);
    expect((await server.call('PATCH', '/api/db/properties?name=eq.incidents.disable.test', editor, { value: 'true' })).status).toBe(204);
    expect((await server.call('POST', '/api/db/properties', editor, { name: 'incidents.disable.test', value: 'false' }, UPSERT)).status).toBe(201);
    expect((await server.call('DELETE', '/api/db/properties?name=eq.incidents.disable.test', editor)).status).toBe(204);
    expect(await stored(server, 'incidents.disable.test')).toBeNull();
  });

  it('lets an admin open registration, set the public URL and remove both', async () => {
    expect((await server.call('PATCH', `/api/db/properties?name=eq.${REGISTRATION_PROPERTY}`, admin, { value: 'true' })).status).toBe(204);
    expect(await registrationEnabled(server.pool, false)).toBe(true);
    expect((await server.call('PATCH', `/api/db/properties?name=eq.${PUBLIC_URL_PROPERTY}`, admin, { value: 'https://ops.example.org' })).status).toBe(204);
    expect(await stored(server, PUBLIC_URL_PROPERTY)).toBe('https://ops.example.org');
    expect((await server.call('POST', '/api/db/properties', admin, { name: 'security.database.allow_local', value: 'true' }, UPSERT)).status).toBe(201);
    for (const name of [REGISTRATION_PROPERTY, PUBLIC_URL_PROPERTY, 'security.database.allow_local']) {
      expect((await server.call('DELETE', `/api/db/properties?name=eq.${name}`, admin)).status).toBe(204);
      expect(await stored(server, name)).toBeNull();
    }
  });

  it('guards in the database exactly the prefixes the server lists', async () => {
    const names = [...ADMIN_ONLY_KEYS, 'Identity.Registration.Enabled', 'incidents.disable', 'logs.disable', 'catalog.hide_deleted_after', 'publicity', 'identity', 'x.identity.y'];
    const result = await server.pool.query<{ name: string; guarded: boolean }>(
      'select name, property_needs_admin(name) as guarded from unnest($1::text[]) as name',
      [names],
    );
    expect(result.rows.map((row) => [row.name, row.guarded])).toEqual(names.map((name) => [name, isAdminOnlyProperty(name)]));
    expect(names.filter((name) => isAdminOnlyProperty(name))).toEqual([...ADMIN_ONLY_KEYS, 'Identity.Registration.Enabled']);
  });
});
