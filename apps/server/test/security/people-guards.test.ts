import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaCacheFor } from '../../src/data-api/data-api-plugin';
import { startTestServer, type TestServer } from '../harness';

/**
 * Hole 7 of issue #8: an editor soft-deleted the admin through /api/db/people and locked them out. Changing who a
 * person is, whether they exist or can sign in, their roles and their identity needs the identities or rbac write
 * (spec 002 §6), and the database itself refuses to lose its last active administrator, whoever asks.
 */

// Requests without a JSON body carry the header the web client sends, so the CSRF guard lets them through.
const NO_BODY = { 'x-requested-with': 'opsdeck-test' };

interface PersonState {
  deleted_at: string | null;
  email: string | null;
  name: string;
  roles: string[];
  identity: string | null;
}

async function personState(server: TestServer, id: string): Promise<PersonState | null> {
  const result = await server.pool.query<PersonState>(
    `select p.deleted_at, p.email, p.name,
            coalesce(array(select r.role from person_roles r where r.person_id = p.id order by r.role), '{}') as roles,
            (select i.state from identities i where i.id = p.id) as identity
       from people p where p.id = $1`,
    [id],
  );
  return result.rows[0] ?? null;
}

async function personId(server: TestServer, email: string): Promise<string> {
  const result = await server.pool.query<{ id: string }>('select id from people where email = $1', [email]);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`no person ${email}`);
  return id;
}

/** The database's own answer to a statement, so a test can show the guard holds below the API too. */
async function sqlState(server: TestServer, sql: string, values: unknown[]): Promise<string | null> {
  try {
    await server.pool.query(sql, values);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'unknown';
  }
}

describe('an editor cannot change who people are, their roles or their identities', () => {
  let server: TestServer;
  let editor: string;
  let adminId: string;
  let viewerId: string;
  let adminBefore: PersonState | null;
  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    adminId = await personId(server, 'admin@opsdeck.local');
    viewerId = await personId(server, 'viewer@opsdeck.local');
    adminBefore = await personState(server, adminId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses an editor soft-deleting the admin, and the admin still signs in', async () => {
    const reply = await server.call('PATCH', '/api/db/people?email=eq.admin@opsdeck.local', editor, { deleted_at: new Date().toISOString() });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: '42501', message: 'permission denied for table people' });
    expect(await personState(server, adminId)).toEqual(adminBefore);
    const whoami = await server.call('GET', '/api/auth/sessions/whoami', await server.cookieFor('admin'));
    expect(whoami.status).toBe(200);
  });

  it('refuses an editor changing a person’s e-mail, type or id, alone or beside a profile field', async () => {
    for (const body of [{ email: 'editor@opsdeck.local' }, { type: 'agent' }, { id: viewerId }, { name: 'Renamed', deleted_at: '2024-01-01T00:00:00Z' }]) {
      const reply = await server.call('PATCH', `/api/db/people?id=eq.${adminId}`, editor, body);
      expect(reply.status, JSON.stringify(body)).toBe(403);
    }
    expect(await personState(server, adminId)).toEqual(adminBefore);
  });

  it('refuses an editor deleting people, or creating and upserting them', async () => {
    expect((await server.call('DELETE', `/api/db/people?id=eq.${adminId}`, editor, undefined, NO_BODY)).status).toBe(403);
    expect((await server.call('DELETE', '/api/db/people?deleted_at=is.null', editor, undefined, NO_BODY)).status).toBe(403);
    expect((await server.call('POST', '/api/db/people', editor, { name: 'Mallory', email: 'mallory@example.com' })).status).toBe(403);
    const upsert = await server.call('POST', '/api/db/people', editor, { id: adminId, name: 'Admin', deleted_at: new Date().toISOString() }, {
      prefer: 'resolution=merge-duplicates',
    });
    expect(upsert.status).toBe(403);
    expect(await personState(server, adminId)).toEqual(adminBefore);
    expect((await server.pool.query('select 1 from people where email = $1', ['mallory@example.com'])).rowCount).toBe(0);
  });

  it('refuses an editor granting themself admin or taking the admin role away', async () => {
    const editorId = await personId(server, 'editor@opsdeck.local');
    expect((await server.call('POST', '/api/db/person_roles', editor, { person_id: editorId, role: 'admin' })).status).toBe(403);
    expect((await server.call('PATCH', `/api/db/person_roles?person_id=eq.${adminId}`, editor, { role: 'viewer' })).status).toBe(403);
    expect((await server.call('DELETE', `/api/db/person_roles?person_id=eq.${adminId}`, editor, undefined, NO_BODY)).status).toBe(403);
    expect((await personState(server, editorId))?.roles).toEqual(['editor']);
    expect(await personState(server, adminId)).toEqual(adminBefore);
  });

  it('refuses an editor deactivating, deleting or creating identities', async () => {
    expect((await server.call('PATCH', `/api/db/identities?id=eq.${adminId}`, editor, { state: 'inactive' })).status).toBe(403);
    expect((await server.call('DELETE', `/api/db/identities?id=eq.${adminId}`, editor, undefined, NO_BODY)).status).toBe(403);
    expect((await server.call('POST', '/api/db/identities', editor, { id: viewerId, traits: {} }, { prefer: 'resolution=merge-duplicates' })).status).toBe(403);
    expect(await personState(server, adminId)).toEqual(adminBefore);
  });

  it('refuses an editor the same change through a writable view over people', async () => {
    await server.pool.query('create view sec_people_directory as select id, name, email, deleted_at from people');
    await schemaCacheFor(server.running.context.db)?.reload();
    const reply = await server.call('PATCH', `/api/db/sec_people_directory?id=eq.${adminId}`, editor, { name: 'Still the admin' });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: '42501', message: 'permission denied for table people' });
    expect((await server.call('DELETE', `/api/db/sec_people_directory?id=eq.${adminId}`, editor, undefined, NO_BODY)).status).toBe(403);
    expect((await server.call('PATCH', '/api/db/people_roles?id=eq.' + adminId, editor, { roles: ['viewer'] })).status).toBe(405);
    expect(await personState(server, adminId)).toEqual(adminBefore);
  });

  it('still lets an editor change a person’s name, avatar and team', async () => {
    const team = await server.pool.query<{ id: string }>('select id from teams order by name limit 1');
    const teamId = team.rows[0]?.id ?? null;
    const reply = await server.call('PATCH', `/api/db/people?id=eq.${viewerId}`, editor, { name: 'Vera Viewer', avatar: 'https://example.com/v.png', team_id: teamId });
    expect(reply.status).toBe(204);
    expect(await personState(server, viewerId)).toMatchObject({ name: 'Vera Viewer', deleted_at: null, identity: 'active' });
    expect((await server.pool.query('select team_id from people where id = $1', [viewerId])).rows[0]).toEqual({ team_id: teamId });
  });
});

describe('the last active administrator can never be removed or disabled', () => {
  let server: TestServer;
  let admin: string;
  let adminId: string;
  let adminBefore: PersonState | null;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    adminId = await personId(server, 'admin@opsdeck.local');
    // The demo has a second administrator (the two-factor demo person); here the seeded admin must be the only one.
    await server.pool.query(`delete from person_roles where role = 'admin' and person_id <> $1`, [adminId]);
    adminBefore = await personState(server, adminId);
  });
  afterAll(async () => {
    await server.close();
  });

  async function expectLastAdmin(method: string, url: string, body?: unknown): Promise<void> {
    const reply = await server.call(method, url, admin, body, body === undefined ? NO_BODY : {});
    expect(reply.status, `${method} ${url}`).toBe(409);
    expect(reply.json).toMatchObject({ code: 'OD_LAST_ADMIN', message: 'The last administrator cannot be removed or disabled' });
    expect(await personState(server, adminId)).toEqual(adminBefore);
  }

  it('refuses the only admin soft-deleting or deleting themself', async () => {
    await expectLastAdmin('PATCH', `/api/db/people?id=eq.${adminId}`, { deleted_at: new Date().toISOString() });
    await expectLastAdmin('DELETE', `/api/db/people?id=eq.${adminId}`);
    await expectLastAdmin('DELETE', '/api/db/people?email=like.*opsdeck.local');
  });

  it('refuses taking the last admin role away, by deleting or changing it', async () => {
    await expectLastAdmin('DELETE', `/api/db/person_roles?person_id=eq.${adminId}&role=eq.admin`);
    await expectLastAdmin('PATCH', `/api/db/person_roles?person_id=eq.${adminId}&role=eq.admin`, { role: 'editor' });
    await expectLastAdmin('DELETE', '/api/db/person_roles?role=eq.admin');
  });

  it('refuses deactivating or deleting the last admin’s identity', async () => {
    await expectLastAdmin('PATCH', `/api/db/identities?id=eq.${adminId}`, { state: 'inactive' });
    await expectLastAdmin('DELETE', `/api/db/identities?id=eq.${adminId}`);
  });

  it('refuses it below the API too, in plain SQL', async () => {
    expect(await sqlState(server, 'update people set deleted_at = now() where id = $1', [adminId])).toBe('ODA01');
    expect(await sqlState(server, 'delete from people where id = $1', [adminId])).toBe('ODA01');
    expect(await sqlState(server, `delete from person_roles where person_id = $1 and role = 'admin'`, [adminId])).toBe('ODA01');
    expect(await sqlState(server, `update identities set state = 'inactive' where id = $1`, [adminId])).toBe('ODA01');
    expect(await personState(server, adminId)).toEqual(adminBefore);
  });

  it('lets an admin remove an admin when another active one remains, but never both at once', async () => {
    const created = await server.call('POST', '/api/db/people', admin, { name: 'Second Admin', email: 'second-admin@opsdeck.local' }, { prefer: 'return=representation' });
    expect(created.status).toBe(201);
    const secondId = String((created.json as unknown as Array<{ id: string }>)[0]?.id);
    expect((await server.call('POST', '/api/db/identities', admin, { id: secondId, traits: { email: 'second-admin@opsdeck.local' } })).status).toBe(201);
    expect((await server.call('POST', '/api/db/person_roles', admin, { person_id: secondId, role: 'admin' })).status).toBe(201);

    const both = await server.call('DELETE', '/api/db/person_roles?role=eq.admin', admin, undefined, NO_BODY);
    expect(both.status).toBe(409);
    expect(both.json).toMatchObject({ code: 'OD_LAST_ADMIN' });
    expect((await personState(server, secondId))?.roles).toEqual(['admin']);
    expect(await personState(server, adminId)).toEqual(adminBefore);

    const removed = await server.call('PATCH', `/api/db/people?id=eq.${adminId}`, admin, { deleted_at: new Date().toISOString() });
    expect(removed.status).toBe(204);
    expect((await personState(server, adminId))?.deleted_at).not.toBeNull();

    // The first admin's session ended with their soft delete; the second is now the last one.
    expect((await server.call('GET', '/api/auth/sessions/whoami', admin)).status).toBe(401);
    expect(await sqlState(server, 'delete from person_roles where person_id = $1', [secondId])).toBe('ODA01');
    expect((await personState(server, secondId))?.roles).toEqual(['admin']);
  });
});
