import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newSessionToken, SESSION_COOKIE } from '../src/auth/shared/session-token';
import { startTestServer, type TestServer } from './harness';
import { callWithToken, createApiToken } from './audit-support';
import { createPerson } from './identity-settings-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A little over the authenticator's cache TTL (1 s): what another process would still honour for that long. */
const AFTER_CACHE = 1100;

describe('personal API tokens', () => {
  let server: TestServer;
  let admin: string;

  /** A session cookie for a person of the test's own, so changing their roles or state touches no other test. */
  async function sessionOf(personId: string): Promise<string> {
    const token = newSessionToken();
    await server.pool.query(`insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + interval '1 hour')`, [hashToken(token), personId]);
    return `${SESSION_COOKIE}=${token}`;
  }

  const writeTeam = (token: string, name: string) => callWithToken(server, token, 'POST', '/api/db/teams', { name });
  const readTeams = (token: string) => callWithToken(server, token, 'GET', '/api/db/teams?select=id&limit=1');

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('creation', () => {
    it('answers the token once, keeps only its SHA-256, and lists it without the token', async () => {
      const created = await createApiToken(server, admin, 'editor', 'deploy script', 90);
      expect(created.status).toBe(201);
      expect(created.token).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
      expect(created.json).toMatchObject({ name: 'deploy script', role: 'editor', last_used_at: null });
      const days = (Date.parse(String(created.json.expires_at)) - Date.parse(String(created.json.created_at))) / 86_400_000;
      expect(days).toBeCloseTo(90, 3);
      const stored = await server.pool.query<{ token_hash: string }>('select token_hash from api_tokens where id = $1', [created.id]);
      expect(stored.rows[0]?.token_hash).toBe(hashToken(created.token));

      const list = await server.call('GET', '/api/auth/api-tokens', admin);
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(created.token);
      expect(list.text).not.toContain(hashToken(created.token));
      expect(list.json.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.id, name: 'deploy script', role: 'editor' })]));
    });

    it('refuses a role above the creator’s highest role', async () => {
      const editor = await server.cookieFor('editor');
      const refused = await createApiToken(server, editor, 'admin');
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: 'OD_API_TOKEN_ROLE', details: 'role' });
      expect((await createApiToken(server, editor, 'editor')).status).toBe(201);
      expect((await createApiToken(server, editor, 'viewer')).status).toBe(201);
    });

    it('refuses an expiry beyond a year, an empty name and an unknown role', async () => {
      for (const body of [
        { name: 'long', role: 'viewer', expiresInDays: 366 },
        { name: 'never', role: 'viewer', expiresInDays: 0 },
        { name: '  ', role: 'viewer', expiresInDays: 7 },
        { name: 'root', role: 'root', expiresInDays: 7 },
      ]) {
        const reply = await server.call('POST', '/api/auth/api-tokens', admin, body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.json.code).toBe('OD_VALIDATION');
      }
    });

    it('cannot be done with a token: a token never mints tokens', async () => {
      const { token } = await createApiToken(server, admin, 'admin', 'tries to mint');
      const reply = await callWithToken(server, token, 'POST', '/api/auth/api-tokens', { name: 'minted', role: 'viewer', expiresInDays: 7 });
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe('OD_API_TOKEN_SESSION_ONLY');
      // Nor with the kubeconfig route, which mints session tokens: a token has no session to derive one from.
      expect((await callWithToken(server, token, 'POST', '/api/kubeconfig')).status).toBe(401);
    });

    it('is refused without a session', async () => {
      expect((await server.call('POST', '/api/auth/api-tokens', '', { name: 'x', role: 'viewer', expiresInDays: 7 })).status).toBe(401);
    });
  });

  describe('scope', () => {
    it('acts with its role: an admin’s viewer token reads but cannot write', async () => {
      const { token } = await createApiToken(server, admin, 'viewer', 'read only');
      expect((await readTeams(token)).status).toBe(200);
      const refused = await writeTeam(token, 'Viewer token team');
      expect(refused.status).toBe(403);
      expect((await callWithToken(server, token, 'GET', '/api/db/audit_log?select=id&limit=1')).status).toBe(403);
    });

    it('lets an editor token of an admin write what editors write, and nothing admins alone may do', async () => {
      const { token } = await createApiToken(server, admin, 'editor', 'editor scope');
      expect((await writeTeam(token, 'Editor token team')).status).toBe(201);
      expect((await callWithToken(server, token, 'GET', '/api/db/audit_log?select=id&limit=1')).status).toBe(403);
    });

    it('wins over a session cookie sent with it', async () => {
      const { token } = await createApiToken(server, admin, 'viewer', 'with a cookie');
      const reply = await server.call('POST', '/api/db/teams', admin, { name: 'Cookie and token' }, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(403);
    });

    it('is capped at its owner’s role after the owner is demoted, and back once promoted', async () => {
      const personId = await createPerson(server, 'token-demoted@example.test', ['editor']);
      const { token } = await createApiToken(server, await sessionOf(personId), 'editor', 'before demotion');
      expect((await writeTeam(token, 'Before demotion')).status).toBe(201);
      await server.pool.query(`update person_roles set role = 'viewer' where person_id = $1`, [personId]);
      await sleep(AFTER_CACHE);
      expect((await writeTeam(token, 'After demotion')).status).toBe(403);
      expect((await readTeams(token)).status).toBe(200);
      await server.pool.query(`update person_roles set role = 'admin' where person_id = $1`, [personId]);
      await sleep(AFTER_CACHE);
      // Promoting the owner gives the token its own role back, never the owner's higher one.
      expect((await writeTeam(token, 'After promotion')).status).toBe(201);
      expect((await callWithToken(server, token, 'GET', '/api/db/audit_log?select=id&limit=1')).status).toBe(403);
    });

    it('stops working when its owner is deactivated or deleted', async () => {
      const personId = await createPerson(server, 'token-deactivated@example.test', ['editor']);
      const cookie = await sessionOf(personId);
      const first = await createApiToken(server, cookie, 'viewer', 'deactivated');
      const second = await createApiToken(server, cookie, 'viewer', 'deleted');
      await server.pool.query(`update identities set state = 'inactive' where id = $1`, [personId]);
      expect((await readTeams(first.token)).status).toBe(401);
      await server.pool.query(`update identities set state = 'active' where id = $1`, [personId]);
      await server.pool.query('update people set deleted_at = now() where id = $1', [personId]);
      expect((await readTeams(second.token)).status).toBe(401);
    });
  });

  describe('lifetime', () => {
    it('is refused once expired', async () => {
      const { token, id } = await createApiToken(server, admin, 'viewer', 'expiring', 7);
      await server.pool.query(`update api_tokens set expires_at = created_at + interval '1 millisecond' where id = $1`, [id]);
      const reply = await readTeams(token);
      expect(reply.status).toBe(401);
      expect(reply.json.code).toBe('OD401');
    });

    it('is refused at once after its owner revokes it, and leaves the list', async () => {
      const { token, id } = await createApiToken(server, admin, 'viewer', 'revoked');
      expect((await readTeams(token)).status).toBe(200);
      expect((await server.call('DELETE', `/api/auth/api-tokens/${id}`, admin)).status).toBe(204);
      expect((await readTeams(token)).status).toBe(401);
      const list = await server.call('GET', '/api/auth/api-tokens', admin);
      expect((list.json.items as Array<{ id: string }>).map((item) => item.id)).not.toContain(id);
      expect((await server.call('DELETE', `/api/auth/api-tokens/${id}`, admin)).status).toBe(404);
    });

    it('may be revoked by an administrator but by no other person', async () => {
      const personId = await createPerson(server, 'token-owner@example.test', ['editor']);
      const { token, id } = await createApiToken(server, await sessionOf(personId), 'viewer', 'someone else’s');
      expect((await server.call('DELETE', `/api/auth/api-tokens/${id}`, await server.cookieFor('editor'))).status).toBe(404);
      expect((await readTeams(token)).status).toBe(200);
      expect((await server.call('DELETE', `/api/auth/api-tokens/${id}`, admin)).status).toBe(204);
      expect((await readTeams(token)).status).toBe(401);
    });

    it('records its last use at most once a minute', async () => {
      const { token, id } = await createApiToken(server, admin, 'viewer', 'last used');
      const lastUsed = async () => (await server.pool.query<{ at: string | null }>('select last_used_at as at from api_tokens where id = $1', [id])).rows[0]?.at ?? null;
      expect((await readTeams(token)).status).toBe(200);
      const first = await lastUsed();
      expect(first).not.toBeNull();
      await sleep(AFTER_CACHE);
      expect((await readTeams(token)).status).toBe(200);
      expect(await lastUsed()).toBe(first);
      await server.pool.query(`update api_tokens set last_used_at = now() - interval '2 minutes' where id = $1`, [id]);
      const stale = await lastUsed();
      await sleep(AFTER_CACHE);
      expect((await readTeams(token)).status).toBe(200);
      expect(Date.parse(String(await lastUsed()))).toBeGreaterThan(Date.parse(String(stale)));
    });

    it('is refused when malformed or unknown, never tried as a session token', async () => {
      expect((await readTeams('odt_short')).status).toBe(401);
      expect((await readTeams(`odt_${'A'.repeat(43)}`)).status).toBe(401);
      const session = newSessionToken();
      await server.pool.query(
        `insert into sessions (token_hash, identity_id, expires_at) select $1, id, now() + interval '1 hour' from people where email = 'admin@opsdeck.local'`,
        [hashToken(`odt_${session}`)],
      );
      expect((await readTeams(`odt_${session}`)).status).toBe(401);
    });
  });
});
