import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@opsdeck/shared';
import { ADMIN_ONLY_PROPERTY_PREFIXES } from '../src/platform/admin-only-properties';
import { startDataApiFixture, type DataApiFixture } from './data-api-fixture';

describe('data API authorization', () => {
  let fx: DataApiFixture;
  beforeAll(async () => {
    fx = await startDataApiFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  it('answers 401 to a request without a session', async () => {
    const response = await fx.request(null, '/teams');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'OD401' });
  });

  it('lets a viewer read but not write', async () => {
    const db = await fx.client('viewer');
    expect((await db.from('teams').select('name')).status).toBe(200);
    const { status, error } = await db.from('dx_users').insert({ id: 50, name: 'No' });
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: 'permission denied for table dx_users' });
    expect((await fx.server.pool.query('select count(*)::int as n from dx_users where id = 50')).rows[0]).toEqual({ n: 0 });
  });

  it('lets a commander write incident-class tables but not feature flags', async () => {
    const db = await fx.client('commander');
    const flag = await db.from('properties').insert({ name: 'x.flag', value: 'true' });
    expect(flag.status).toBe(403);
    expect(flag.error?.code).toBe('42501');
    const { status } = await db.from('incidents').select('id').limit(1);
    expect(status).toBe(200);
  });

  it('lets an editor write feature flags', async () => {
    const db = await fx.client('editor');
    const { status } = await db.from('properties').insert({ name: 'dx.flag', value: 'true' });
    expect(status).toBe(201);
  });

  it('refuses sessions, credentials and migrations to every role, admin included', async () => {
    const db = await fx.client('admin');
    for (const table of ['sessions', 'identity_credentials', 'schema_migrations']) {
      const { status, error } = await db.from(table).select('*');
      expect(status, table).toBe(403);
      expect(error?.code, table).toBe('42501');
    }
    const write = await db.from('sessions').delete().eq('active', true);
    expect(write.status).toBe(403);
  });

  it('refuses an embedded resource the user may not read', async () => {
    const db = await fx.client('viewer');
    const { status, error } = await db.from('people').select('id,identities(state)');
    expect(status).toBe(403);
    expect(error?.message).toBe('permission denied for table identities');
    const admin = await fx.client('admin');
    const sessions = await admin.from('identities').select('id,sessions(id)');
    expect(sessions.status).toBe(403);
  });

  it('refuses a filter through an embedded resource the user may not read', async () => {
    const response = await fx.request('viewer', '/people?select=id,identities!inner()&identities.state=eq.active');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: '42501' });
  });

  it('lets an admin read role assignments that a viewer may not', async () => {
    expect((await (await fx.client('admin')).from('person_roles').select('role')).status).toBe(200);
    expect((await (await fx.client('viewer')).from('person_roles').select('role')).status).toBe(403);
  });

  it('answers PGRST205 for a table that does not exist', async () => {
    const { status, error } = await (await fx.client('admin')).from('nope').select('*');
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST205');
  });
});

/**
 * The properties part of the role × resource × action matrix (#31): which keys each role may write. Admin-only keys
 * (platform/admin-only-properties.ts) are refused to editors by the database guard (OD_PROPERTY_ADMIN_ONLY); the
 * roles without feature_flags write are refused every key before the write is planned (42501).
 */
describe('data API authorization of properties, key by key', () => {
  const ORDINARY = 'matrix.ordinary.flag';
  const KEYS = [ORDINARY, ...ADMIN_ONLY_PROPERTY_PREFIXES.map((prefix) => `${prefix}matrix`)];
  const expected = (role: Role, key: string): { status: number; code?: string } => {
    if (role === 'admin') return { status: 201 };
    if (role === 'editor') return key === ORDINARY ? { status: 201 } : { status: 403, code: 'OD_PROPERTY_ADMIN_ONLY' };
    return { status: 403, code: '42501' };
  };

  let fx: DataApiFixture;
  beforeAll(async () => {
    fx = await startDataApiFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  for (const role of ROLES) {
    it(`lets ${role === 'admin' ? 'an' : 'a'} ${role} create, change and delete exactly the keys its role allows`, async () => {
      for (const key of KEYS) {
        const want = expected(role, key);
        const value = key.endsWith('.days') ? '30' : 'on';
        const created = await fx.request(role, '/properties', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: key, value }) });
        expect(created.status, `${role} POST ${key}`).toBe(want.status);
        if (want.code !== undefined) expect(await created.json(), `${role} POST ${key}`).toMatchObject({ code: want.code });

        await fx.server.pool.query(`insert into properties (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value`, [key, value]);
        const changeStatus = want.status === 201 ? 204 : want.status;
        const patched = await fx.request(role, `/properties?name=eq.${key}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: role }) });
        expect(patched.status, `${role} PATCH ${key}`).toBe(changeStatus);
        const deleted = await fx.request(role, `/properties?name=eq.${key}`, { method: 'DELETE' });
        expect(deleted.status, `${role} DELETE ${key}`).toBe(changeStatus);
        const left = await fx.server.pool.query('select 1 from properties where name = $1', [key]);
        expect(left.rowCount, `${role} ${key} after DELETE`).toBe(want.status === 201 ? 0 : 1);
        await fx.server.pool.query('delete from properties where name = $1', [key]);
      }
    });
  }
});
