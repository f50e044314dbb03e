import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { hashToken, newSessionToken, SESSION_COOKIE, SESSION_TTL_MS } from '../src/auth/shared/session-token';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { startTestServer, type TestServer } from './harness';

/**
 * The Users screen's server side (spec 002 §2.2, §5–§8): inviting a user (mail with a link to set a password),
 * replacing roles, deleting and deactivating through the data API with their sessions ended at once, and the
 * last active administrator kept whatever is tried.
 */

interface SummaryRow {
  id: string;
  name: string;
  email: string;
  roles: string[];
  state: string;
  invited: boolean;
}

const LINK = /https?:\/\/\S+/;

function linkIn(mail: ParsedMail): string {
  const link = LINK.exec(mail.text ?? '')?.[0];
  if (link === undefined) throw new Error(`no link in the mail '${mail.subject ?? ''}'`);
  return link;
}

async function idOf(server: TestServer, email: string): Promise<string> {
  const result = await server.pool.query<{ id: string }>('select id from people where lower(email) = lower($1) and deleted_at is null', [email]);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`no live person ${email}`);
  return id;
}

/** A signed-in session of any person, as the harness makes them for the demo roles. */
async function cookieOf(server: TestServer, personId: string): Promise<string> {
  const token = newSessionToken();
  await server.pool.query(
    `insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + make_interval(secs => $3::double precision / 1000))`,
    [hashToken(token), personId, SESSION_TTL_MS],
  );
  return `${SESSION_COOKIE}=${token}`;
}

async function rolesOf(server: TestServer, personId: string): Promise<string[]> {
  const result = await server.pool.query<{ role: string }>('select role from person_roles where person_id = $1 order by role', [personId]);
  return result.rows.map((row) => row.role);
}

describe('user management', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let admin: string;
  let editor: string;
  let adminId: string;

  const invite = (cookie: string, body: Record<string, unknown>) => server.call('POST', '/api/auth/invite_user', cookie, body);
  const updateRole = (cookie: string, id: string, roles: unknown) => server.call('POST', `/api/rbac/${id}/update_role`, cookie, { roles });
  const summary = async (cookie: string, id: string): Promise<SummaryRow | undefined> => {
    const reply = await server.call('GET', `/api/db/identities_summary?id=eq.${id}`, cookie);
    expect(reply.status).toBe(200);
    return (reply.json as unknown as SummaryRow[])[0];
  };

  /** The demo holds more than one administrator; the last-admin rules are tried with Ada as the only one. */
  const onlyAdaIsAdmin = async () => {
    await server.pool.query(`delete from person_roles where role = 'admin' and person_id <> $1`, [adminId]);
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: { OPSDECK_SMTP_URL: sink.url } });
    [admin, editor] = await Promise.all([server.cookieFor('admin'), server.cookieFor('editor')]);
    adminId = await idOf(server, 'admin@opsdeck.local');
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  describe('inviting a user', () => {
    it('creates the person with the role and mails them a link that signs them in to choose a password', async () => {
      const since = sink.mails.length;
      const reply = await invite(admin, { firstName: ' Grace ', lastName: 'Hopper', email: 'Grace@Example.test', role: 'responder' });
      expect(reply.status).toBe(200);
      // Mail leaves the server, so the link goes only by mail.
      expect(reply.json).toEqual({ id: expect.any(String), existing: false, link: null });
      const id = String(reply.json.id);

      const row = await summary(admin, id);
      expect(row).toMatchObject({ id, name: 'Grace Hopper', email: 'grace@example.test', roles: ['responder'], state: 'active', invited: true });
      const identity = await server.pool.query<{ traits: unknown }>('select traits from identities where id = $1', [id]);
      expect(identity.rows[0]?.traits).toEqual({ email: 'grace@example.test', name: { first: 'Grace', last: 'Hopper' } });

      const mail = await sink.waitFor('grace@example.test', { since });
      expect(mail.text).toContain('Ada Admin');
      expect(mail.text).toContain('responder');
      const link = linkIn(mail);
      expect(link.startsWith(server.url)).toBe(true);

      const opened = await fetch(link, { redirect: 'manual' });
      expect([302, 303]).toContain(opened.status);
      expect(opened.headers.get('location')).toContain('/profile-settings');
      const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
      const whoami = await server.call('GET', '/api/auth/sessions/whoami', cookie);
      expect(whoami.status).toBe(200);
      expect(whoami.json).toMatchObject({ person: { id } });
    });

    it('only adds the role to a user who already has the e-mail, answers existing and sends no mail', async () => {
      const viewerId = await idOf(server, 'viewer@opsdeck.local');
      const since = sink.mails.length;
      const reply = await invite(admin, { firstName: 'Vic', lastName: 'Again', email: 'VIEWER@opsdeck.local', role: 'commander' });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ id: viewerId, existing: true });
      expect(await rolesOf(server, viewerId)).toEqual(['commander', 'viewer']);
      const people = await server.pool.query('select 1 from people where lower(email) = $1', ['viewer@opsdeck.local']);
      expect(people.rowCount).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sink.mails.slice(since)).toEqual([]);
    });

    it('answers each missing or wrong field with the form’s own sentence and creates nobody', async () => {
      const valid = { firstName: 'Ida', lastName: 'Rhodes', email: 'ida@example.test', role: 'viewer' };
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ ...valid, firstName: '  ' }, 'firstName', 'Please provide valid first name'],
        [{ ...valid, lastName: undefined }, 'lastName', 'Please provide valid last name'],
        [{ ...valid, email: '' }, 'email', 'Please provide valid email'],
        [{ ...valid, email: 'ida at example' }, 'email', 'Entered value does not match email format'],
        [{ ...valid, role: undefined }, 'role', 'Please select any role'],
        [{ ...valid, role: 'root' }, 'role', 'Please select any role'],
      ];
      for (const [body, field, message] of cases) {
        const reply = await invite(admin, body);
        expect(reply.status, field).toBe(400);
        expect(reply.json).toEqual({ code: 'OD_USER_INVITE', message, details: field, hint: expect.any(String) });
      }
      const wrongType = await invite(admin, { ...valid, firstName: 42 });
      expect(wrongType.status).toBe(400);
      expect(wrongType.json).toMatchObject({ code: 'OD_VALIDATION' });
      const people = await server.pool.query('select 1 from people where email = $1', ['ida@example.test']);
      expect(people.rowCount).toBe(0);
    });

    it('refuses an editor (no write on identities) and an anonymous caller', async () => {
      const body = { firstName: 'Eve', lastName: 'Editor', email: 'eve@example.test', role: 'admin' };
      const refused = await invite(editor, body);
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: 'OD403' });
      expect((await invite('', body)).status).toBe(401);
      const people = await server.pool.query('select 1 from people where email = $1', ['eve@example.test']);
      expect(people.rowCount).toBe(0);
    });
  });

  describe('replacing roles', () => {
    let userId: string;
    beforeAll(async () => {
      await onlyAdaIsAdmin();
      const reply = await invite(admin, { firstName: 'Role', lastName: 'Holder', email: 'role.holder@example.test', role: 'viewer' });
      userId = String(reply.json.id);
    });

    it('replaces the roles with the list given, and the user’s next request already has them', async () => {
      const cookie = await cookieOf(server, userId);
      expect((await server.call('POST', '/api/db/properties', cookie, { name: 'roles.test', value: 'x' })).status).toBe(403);
      const reply = await updateRole(admin, userId, ['editor', 'responder', 'editor']);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ id: userId, roles: ['editor', 'responder'] });
      expect(await rolesOf(server, userId)).toEqual(['editor', 'responder']);
      expect((await server.call('POST', '/api/db/properties', cookie, { name: 'roles.test', value: 'x' })).status).toBe(201);
      await updateRole(admin, userId, ['viewer']);
      expect((await server.call('PATCH', '/api/db/properties?name=eq.roles.test', cookie, { value: 'y' })).status).toBe(403);
    });

    it('refuses an editor (no write on rbac) and leaves the roles as they were', async () => {
      const reply = await updateRole(editor, userId, ['admin']);
      expect(reply.status).toBe(403);
      expect(await rolesOf(server, userId)).toEqual(['viewer']);
    });

    it('refuses an empty list, an unknown role and an unknown user', async () => {
      const empty = await updateRole(admin, userId, []);
      expect(empty.status).toBe(400);
      expect(empty.json).toMatchObject({ code: 'OD_USER_ROLES', message: 'Please select any role' });
      const unknown = await updateRole(admin, userId, ['viewer', 'superuser']);
      expect(unknown.status).toBe(400);
      expect(unknown.json).toMatchObject({ code: 'OD_USER_ROLES', message: 'Not a role: superuser' });
      const nobody = await updateRole(admin, '00000000-0000-4000-8000-000000000000', ['viewer']);
      expect(nobody.status).toBe(404);
      expect((await updateRole(admin, 'not-a-uuid', ['viewer'])).status).toBe(400);
      expect(await rolesOf(server, userId)).toEqual(['viewer']);
    });

    it('never takes admin away from the last active administrator', async () => {
      const reply = await updateRole(admin, adminId, ['editor']);
      expect(reply.status).toBe(409);
      expect(reply.json).toMatchObject({ code: 'OD_LAST_ADMIN' });
      expect(await rolesOf(server, adminId)).toContain('admin');
    });
  });

  describe('deactivating and deleting through the data API', () => {
    let userId: string;
    let teamId: string;
    beforeAll(async () => {
      const reply = await invite(admin, { firstName: 'Short', lastName: 'Lived', email: 'short.lived@example.test', role: 'editor' });
      userId = String(reply.json.id);
      const team = await server.pool.query<{ id: string }>(`insert into teams (name) values ('Leavers') returning id`);
      teamId = team.rows[0]?.id ?? '';
      await server.pool.query('insert into team_members (team_id, person_id) values ($1, $2)', [teamId, userId]);
    });

    it('ends the sessions of a deactivated user at once, and reactivating does not bring them back', async () => {
      const cookie = await cookieOf(server, userId);
      expect((await server.call('GET', '/api/db/teams?select=id&limit=1', cookie)).status).toBe(200);
      const reply = await server.call('PATCH', `/api/db/identities?id=eq.${userId}`, admin, { state: 'inactive' });
      expect(reply.status).toBe(204);
      expect((await server.call('GET', '/api/db/teams?select=id&limit=1', cookie)).status).toBe(401);
      expect((await summary(admin, userId))?.state).toBe('inactive');
      const sessions = await server.pool.query<{ active: boolean }>('select active from sessions where identity_id = $1', [userId]);
      expect(sessions.rows.every((row) => !row.active)).toBe(true);

      expect((await server.call('PATCH', `/api/db/identities?id=eq.${userId}`, admin, { state: 'active' })).status).toBe(204);
      expect((await server.call('GET', '/api/db/teams?select=id&limit=1', cookie)).status).toBe(401);
      expect((await server.call('GET', '/api/db/teams?select=id&limit=1', await cookieOf(server, userId))).status).toBe(200);
    });

    it('refuses an editor deactivating or deleting a user', async () => {
      expect((await server.call('PATCH', `/api/db/identities?id=eq.${userId}`, editor, { state: 'inactive' })).status).toBe(403);
      expect((await server.call('DELETE', `/api/db/identities?id=eq.${userId}`, editor)).status).toBe(403);
      expect((await summary(admin, userId))?.state).toBe('active');
    });

    it('deletes a user: sessions and credentials go, the person stays soft deleted and leaves their teams', async () => {
      const cookie = await cookieOf(server, userId);
      await server.pool.query(`insert into identity_credentials (identity_id, type, identifiers) values ($1, 'password', $2)`, [userId, ['short.lived@example.test']]);
      const reply = await server.call('DELETE', `/api/db/identities?id=eq.${userId}`, admin);
      expect(reply.status).toBe(204);
      expect((await server.call('GET', '/api/db/teams?select=id&limit=1', cookie)).status).toBe(401);

      const person = await server.pool.query<{ deleted: boolean }>('select deleted_at is not null as deleted from people where id = $1', [userId]);
      expect(person.rows[0]?.deleted).toBe(true);
      for (const table of ['identities where id', 'identity_credentials where identity_id', 'sessions where identity_id', 'team_members where person_id']) {
        const left = await server.pool.query(`select 1 from ${table} = $1`, [userId]);
        expect(left.rowCount, table).toBe(0);
      }
      expect(await summary(admin, userId)).toBeUndefined();
    });

    it('lets a deleted user’s e-mail be invited again as a new person', async () => {
      const reply = await invite(admin, { firstName: 'Short', lastName: 'Lived', email: 'short.lived@example.test', role: 'viewer' });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ existing: false });
      expect(reply.json.id).not.toBe(userId);
    });

    it('never deactivates or deletes the last active administrator', async () => {
      await onlyAdaIsAdmin();
      const deactivate = await server.call('PATCH', `/api/db/identities?id=eq.${adminId}`, admin, { state: 'inactive' });
      expect(deactivate.status).toBe(409);
      expect(deactivate.json).toMatchObject({ code: 'OD_LAST_ADMIN' });
      const remove = await server.call('DELETE', `/api/db/identities?id=eq.${adminId}`, admin);
      expect(remove.status).toBe(409);
      expect(remove.json).toMatchObject({ code: 'OD_LAST_ADMIN' });
      expect(await summary(admin, adminId)).toMatchObject({ state: 'active', roles: expect.arrayContaining(['admin']) });
      expect((await server.call('GET', '/api/auth/sessions/whoami', admin)).status).toBe(200);
    });
  });

  describe('the users list', () => {
    it('is refused to every role that may not read identities', async () => {
      for (const role of ['commander', 'responder', 'viewer'] as const) {
        const reply = await server.call('GET', '/api/db/identities_summary?select=id,email', await server.cookieFor(role));
        expect(reply.status, role).toBe(403);
        expect(reply.json).toMatchObject({ code: '42501', message: 'permission denied for table identities_summary' });
      }
    });

    it('is read by admins and editors (editors read everything, spec 000 §6), with name, email, roles, state and created_at', async () => {
      for (const cookie of [admin, editor]) {
        const reply = await server.call('GET', '/api/db/identities_summary?select=name,email,roles,state,created_at&email=eq.admin@opsdeck.local', cookie);
        expect(reply.status).toBe(200);
        expect(reply.json).toEqual([{ name: 'Ada Admin', email: 'admin@opsdeck.local', roles: ['admin'], state: 'active', created_at: expect.any(String) }]);
      }
    });

    it('cannot be written through, even by an admin', async () => {
      const reply = await server.call('PATCH', `/api/db/identities_summary?id=eq.${adminId}`, admin, { state: 'inactive' });
      expect(reply.json).toMatchObject({ code: 'PGRST117' });
      expect(reply.status).toBe(405);
    });
  });
});

describe('an invitation on a server without a mail server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the admin the link the mail would carry, which opens the invitee\'s password page, and lists them as invited', async () => {
    const admin = await server.cookieFor('admin');
    const reply = await server.call('POST', '/api/auth/invite_user', admin, { firstName: 'Link', lastName: 'Only', email: 'link.only@example.test', role: 'viewer' });
    expect(reply.status, reply.text).toBe(200);
    const link = (reply.json as unknown as { link: { url: string; expiresAt: string } | null }).link;
    expect(link?.url.startsWith(server.url)).toBe(true);
    expect(Date.parse(link?.expiresAt ?? '')).toBeGreaterThan(Date.now());
    const id = String(reply.json.id);
    const listed = await server.call('GET', `/api/db/identities_summary?id=eq.${id}&select=state,invited`, admin);
    expect(listed.json).toEqual([{ state: 'active', invited: true }]);
    const opened = await fetch(link?.url ?? '', { redirect: 'manual' });
    expect([302, 303]).toContain(opened.status);
    expect(opened.headers.get('location')).toContain('/profile-settings');
    const demo = await server.call('GET', `/api/db/identities_summary?email=eq.admin@opsdeck.local&select=invited`, admin);
    expect(demo.json).toEqual([{ invited: false }]);
    // The first credential (here a password, as the profile page sets it) ends the invitation.
    await server.pool.query(`insert into identity_credentials (identity_id, type, identifiers) values ($1, 'password', '{}')`, [id]);
    const after = await server.call('GET', `/api/db/identities_summary?id=eq.${id}&select=invited`, admin);
    expect(after.json).toEqual([{ invited: false }]);
  });
});

describe('an invitation whose mail cannot be sent', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Port 9 (discard) has no SMTP server on the loopback address: the connection is refused at once.
    server = await startTestServer({ env: { OPSDECK_SMTP_URL: 'smtp://127.0.0.1:9' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 502 and leaves no user behind, so the address can be invited again', async () => {
    const reply = await server.call('POST', '/api/auth/invite_user', await server.cookieFor('admin'), {
      firstName: 'No',
      lastName: 'Mail',
      email: 'no.mail@example.test',
      role: 'viewer',
    });
    expect(reply.status).toBe(502);
    expect(reply.json).toMatchObject({ code: 'OD_INVITE_MAIL' });
    const people = await server.pool.query('select 1 from people where email = $1', ['no.mail@example.test']);
    expect(people.rowCount).toBe(0);
  });
});

describe('inviting in hosted mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The provider is only asked at the first sign-in, so an address where none answers is enough here.
    server = await startTestServer({
      env: {
        OPSDECK_OIDC_ISSUER: 'http://127.0.0.1:9/realm',
        OPSDECK_OIDC_CLIENT_ID: 'opsdeck',
        OPSDECK_OIDC_CLIENT_SECRET: 'not-a-real-secret',
        OPSDECK_OIDC_PROVIDER_NAME: 'Example ID',
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is refused, as people get their accounts from the provider and no invitation link could be opened', async () => {
    const reply = await server.call('POST', '/api/auth/invite_user', await server.cookieFor('admin'), {
      firstName: 'Hosted',
      lastName: 'Person',
      email: 'hosted.person@example.test',
      role: 'viewer',
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_USERS_HOSTED', message: 'People sign in through Example ID here, so they are invited there' });
    const people = await server.pool.query('select 1 from people where email = $1', ['hosted.person@example.test']);
    expect(people.rowCount).toBe(0);
  });
});
