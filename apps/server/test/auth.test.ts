import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hashToken, SESSION_COOKIE } from '../src/auth/shared/session-token';
import { sweepAuthState } from '../src/auth/sessions/sessions';
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS } from '../src/auth/login/password-login';
import { createPerson as createTestPerson } from './identity-email-flows-support';
import { startTestServer, type TestServer } from './harness';
import { cookieHeader, csrfOf, TestBrowser, type FlowBody, type KratosErrorResponse } from './auth-client';

const PASSWORD = 'opsdeck-demo';
const INVALID_CREDENTIALS =
  'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.';

interface WhoamiBody {
  id: string;
  active: boolean;
  authenticator_assurance_level: string;
  authentication_methods: { method: string; aal: string; completed_at: string }[];
  identity: { id: string; schema_id: string; state: string; traits: { email: string; name: { first: string; last: string } } };
  person: { id: string; name: string; email: string | null; avatar: string | null };
  roles: string[];
  expires_at: string;
}

describe('sign-in and sessions', () => {
  let server: TestServer;
  const browser = (): TestBrowser => new TestBrowser(server.url);

  /** A person of our own, so that rate limits and role changes never leak into other tests. */
  const createPerson = (email: string, roles: string[]): Promise<string> => createTestPerson(server, email, roles);

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('login flow creation', () => {
    it('answers a JSON request with a Kratos login flow holding csrf, identifier, password and submit nodes', async () => {
      const b = browser();
      const flow = await b.startLogin('?return_to=/incidents');
      expect(flow).toMatchObject({ type: 'browser', return_to: '/incidents', refresh: false, requested_aal: 'aal1', state: 'choose_method' });
      expect(flow.ui.action).toBe(`/api/auth/self-service/login?flow=${flow.id}`);
      expect(flow.ui.method).toBe('POST');
      const byName = new Map(flow.ui.nodes.map((node) => [node.attributes.name, node]));
      expect(byName.get('csrf_token')).toMatchObject({
        type: 'input',
        group: 'default',
        attributes: { type: 'hidden', node_type: 'input', disabled: false, required: true },
        messages: [],
      });
      expect(csrfOf(flow)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(byName.get('identifier')).toMatchObject({
        group: 'default',
        attributes: { type: 'text', node_type: 'input', required: true },
        meta: { label: { text: 'E-Mail', type: 'info' } },
      });
      expect(byName.get('password')).toMatchObject({ group: 'password', attributes: { type: 'password', required: true } });
      expect(byName.get('method')).toMatchObject({
        group: 'password',
        attributes: { type: 'submit', value: 'password' },
        meta: { label: { text: 'Sign in' } },
      });
      const csrfCookie = cookieHeader(b.lastSetCookies, 'opsdeck_csrf');
      expect(csrfCookie).toMatch(/HttpOnly/i);
      expect(csrfCookie).toMatch(/SameSite=Lax/i);
      expect(b.cookies.get('opsdeck_csrf')).toBe(csrfOf(flow));
      const stored = await server.pool.query<{ csrf_token_hash: string; ui: string }>(
        'select csrf_token_hash, ui::text as ui from self_service_flows where id = $1',
        [flow.id],
      );
      expect(stored.rows[0]?.csrf_token_hash).toBe(hashToken(csrfOf(flow)));
      expect(stored.rows[0]?.ui).not.toContain(csrfOf(flow));
    });

    it('redirects a browser navigation to /login with the flow id and return_to', async () => {
      const response = await browser().request('/api/auth/self-service/login/browser?return_to=%2Fcatalog%3Fx%3D1');
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location') ?? '', server.url);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('return_to')).toBe('/catalog?x=1');
      const flowId = location.searchParams.get('flow') ?? '';
      const flow = await browser().json(`/api/auth/self-service/login/flows?id=${flowId}`);
      expect(flow.status).toBe(200);
      expect(((await flow.json()) as FlowBody).return_to).toBe('/catalog?x=1');
    });

    it('refuses a return_to outside this site with self_service_flow_return_to_forbidden', async () => {
      for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
        const response = await browser().json(`/api/auth/self-service/login/browser?return_to=${encodeURIComponent(target)}`);
        expect(response.status).toBe(400);
        expect(((await response.json()) as KratosErrorResponse).error).toMatchObject({
          id: 'self_service_flow_return_to_forbidden',
          code: 400,
        });
      }
    });

    it('accepts an absolute return_to on the same origin and keeps only its path', async () => {
      const flow = await browser().startLogin(`?return_to=${encodeURIComponent(`${server.url}/health?tab=1`)}`);
      expect(flow.return_to).toBe('/health?tab=1');
    });

    it('answers an unknown flow id with a Kratos-shaped 404', async () => {
      for (const id of ['0b6a2a52-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const response = await browser().json(`/api/auth/self-service/login/flows?id=${id}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ error: { code: 404, status: 'Not Found', message: expect.any(String) } });
      }
    });

    it('answers an expired flow with 410 self_service_flow_expired and a replacement flow that keeps return_to', async () => {
      const b = browser();
      const flow = await b.startLogin('?return_to=/topology');
      await server.pool.query(`update self_service_flows set expires_at = now() - interval '1 minute' where id = $1`, [flow.id]);
      const response = await b.json(`/api/auth/self-service/login/flows?id=${flow.id}`);
      expect(response.status).toBe(410);
      const body = (await response.json()) as KratosErrorResponse;
      expect(body.error).toMatchObject({ id: 'self_service_flow_expired', code: 410, status: 'Gone' });
      expect(body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
      const replacement = (await (await b.json(`/api/auth/self-service/login/flows?id=${body.use_flow_id ?? ''}`)).json()) as FlowBody;
      expect(replacement.return_to).toBe('/topology');

      const submit = await b.submitJson(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(submit.status).toBe(410);
      expect(((await submit.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_expired');
    });

    it('lives for one hour', async () => {
      const flow = await browser().startLogin();
      const row = await server.pool.query<{ seconds: number }>(
        'select extract(epoch from expires_at - issued_at)::int as seconds from self_service_flows where id = $1',
        [flow.id],
      );
      expect(row.rows[0]?.seconds).toBe(3600);
    });
  });

  describe('password login', () => {
    it('signs in with a JSON post, returning the session and identity and setting the session cookie', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const response = await b.submitJson(flow, { method: 'password', identifier: 'Editor@OpsDeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { session: WhoamiBody; identity: WhoamiBody['identity'] };
      expect(body.session).toMatchObject({ active: true, authenticator_assurance_level: 'aal1', roles: ['editor'] });
      expect(body.session.authentication_methods).toEqual([{ method: 'password', aal: 'aal1', completed_at: expect.any(String) }]);
      expect(body.identity).toMatchObject({ schema_id: 'default', state: 'active', traits: { email: 'editor@opsdeck.local' } });

      const cookie = cookieHeader(b.lastSetCookies, SESSION_COOKIE) ?? '';
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/Max-Age=86400/);
      // Served over plain http here, where a Secure cookie would never come back.
      expect(cookie).not.toMatch(/Secure/i);
    });

    it('signs in with a form post and redirects to the flow return_to', async () => {
      const b = browser();
      const flow = await b.startLogin('?return_to=/incidents/42');
      const response = await b.submitForm(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/incidents/42');
      expect(b.cookies.has(SESSION_COOKIE)).toBe(true);
      const whoami = await b.json('/api/auth/sessions/whoami');
      expect(whoami.status).toBe(200);
      expect(((await whoami.json()) as WhoamiBody).person.email).toBe('viewer@opsdeck.local');
    });

    it('answers a wrong password with 400, the invalid-credentials message and the identifier kept', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const response = await b.submitJson(flow, { method: 'password', identifier: 'responder@opsdeck.local', password: 'nope', csrf_token: csrfOf(flow) });
      expect(response.status).toBe(400);
      const body = (await response.json()) as FlowBody;
      expect(body.id).toBe(flow.id);
      expect(body.ui.messages).toEqual([{ id: 4000006, text: INVALID_CREDENTIALS, type: 'error' }]);
      expect(body.ui.nodes.find((node) => node.attributes.name === 'identifier')?.attributes.value).toBe('responder@opsdeck.local');
      expect(csrfOf(body)).toBe(csrfOf(flow));
      expect(b.cookies.has(SESSION_COOKIE)).toBe(false);

      const retry = await b.submitJson(body, { method: 'password', identifier: 'responder@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(body) });
      expect(retry.status).toBe(200);
    });

    it('answers an unknown identifier exactly like a wrong password', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const response = await b.submitJson(flow, { method: 'password', identifier: 'nobody@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as FlowBody).ui.messages).toEqual([{ id: 4000006, text: INVALID_CREDENTIALS, type: 'error' }]);
    });

    it('redirects a failed form post back to the login page, where the flow shows the message', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const response = await b.submitForm(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: 'wrong', csrf_token: csrfOf(flow) });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`/login?flow=${flow.id}`);
      const reloaded = (await (await b.json(`/api/auth/self-service/login/flows?id=${flow.id}`)).json()) as FlowBody;
      expect(reloaded.ui.messages?.[0]?.id).toBe(4000006);
      expect(csrfOf(reloaded)).toBe(csrfOf(flow));
    });

    it('reports missing fields under the field they belong to', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const response = await b.submitJson(flow, { method: 'password', identifier: 'viewer@opsdeck.local', csrf_token: csrfOf(flow) });
      expect(response.status).toBe(400);
      const body = (await response.json()) as FlowBody;
      expect(body.ui.nodes.find((node) => node.attributes.name === 'password')?.messages).toEqual([
        expect.objectContaining({ id: 4000002, type: 'error' }),
      ]);
    });

    it('rejects a body token that does not match the csrf cookie with security_csrf_violation', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const wrongToken = await b.submitJson(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: 'x'.repeat(43) });
      expect(wrongToken.status).toBe(403);
      expect(((await wrongToken.json()) as KratosErrorResponse).error).toMatchObject({ id: 'security_csrf_violation', code: 403 });

      // Another browser that learned the flow id and token still lacks the cookie.
      const attacker = browser();
      const noCookie = await attacker.submitForm(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(noCookie.status).toBe(403);
      expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);

      // Nor does another browser's valid token fit this flow.
      const other = browser();
      const otherFlow = await other.startLogin();
      const crossed = await other.submitJson(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(otherFlow) });
      expect(crossed.status).toBe(403);
    });

    it('does not let a completed flow be used for a second sign-in', async () => {
      const b = browser();
      const flow = await b.startLogin();
      const body = { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) };
      expect((await b.submitJson(flow, body)).status).toBe(200);
      const again = await b.submitJson(flow, body);
      expect(again.status).toBe(410);
    });

    it('blocks an identifier after too many failures, even for the right password, and only that identifier', async () => {
      await createPerson('limited@opsdeck.local', ['viewer']);
      const b = browser();
      const flow = await b.startLogin();
      for (let attempt = 0; attempt < LOGIN_FAILURE_LIMIT; attempt += 1) {
        const response = await b.submitJson(flow, { method: 'password', identifier: 'limited@opsdeck.local', password: `wrong-${attempt}`, csrf_token: csrfOf(flow) });
        expect(response.status).toBe(400);
      }
      const blocked = await b.submitJson(flow, { method: 'password', identifier: 'LIMITED@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(blocked.status).toBe(429);
      expect(((await blocked.json()) as KratosErrorResponse).error.code).toBe(429);

      expect((await browser().signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);

      await server.pool.query(`update login_failures set failed_at = now() - make_interval(secs => $1::double precision / 1000 + 1)`, [LOGIN_FAILURE_WINDOW_MS]);
      expect((await browser().signIn('limited@opsdeck.local', PASSWORD)).status).toBe(200);
    });

    it('answers session_already_available when a signed-in browser asks for a new login flow', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const json = await b.json('/api/auth/self-service/login/browser');
      expect(json.status).toBe(400);
      expect(((await json.json()) as KratosErrorResponse).error.id).toBe('session_already_available');
      const navigation = await b.request('/api/auth/self-service/login/browser?return_to=/health');
      expect(navigation.status).toBe(303);
      expect(navigation.headers.get('location')).toBe('/health');
    });

    it('opens a refresh flow that only the signed-in person can complete', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const flow = await b.startLogin('?refresh=true');
      expect(flow.refresh).toBe(true);
      expect(flow.ui.nodes.find((node) => node.attributes.name === 'identifier')?.attributes).toMatchObject({
        type: 'hidden',
        value: 'viewer@opsdeck.local',
      });
      const someoneElse = await b.submitJson(flow, { method: 'password', identifier: 'editor@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(someoneElse.status).toBe(400);
      const same = await b.submitJson(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expect(same.status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('answers whoami with 401 session_inactive before sign-in, the session after, and 401 again after logout', async () => {
      const b = browser();
      const before = await b.json('/api/auth/sessions/whoami');
      expect(before.status).toBe(401);
      expect(await before.json()).toMatchObject({ error: { id: 'session_inactive', code: 401, status: 'Unauthorized' } });

      expect((await b.signIn('commander@opsdeck.local', PASSWORD)).status).toBe(200);
      const during = await b.json('/api/auth/sessions/whoami');
      expect(during.status).toBe(200);
      const session = (await during.json()) as WhoamiBody;
      expect(session).toMatchObject({
        active: true,
        authenticator_assurance_level: 'aal1',
        identity: { state: 'active', traits: { email: 'commander@opsdeck.local', name: { first: 'Cora', last: 'Commander' } } },
        person: { name: 'Cora Commander', email: 'commander@opsdeck.local', avatar: null },
        roles: ['commander'],
      });
      expect(session.person.id).toBe(session.identity.id);
      expect(Date.parse(session.expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

      const logout = await b.json('/api/auth/self-service/logout/browser');
      expect(logout.status).toBe(200);
      const { logout_token: token, logout_url: url } = (await logout.json()) as { logout_token: string; logout_url: string };
      expect(url).toBe(`${server.url}/api/auth/self-service/logout?token=${token}`);
      const again = (await (await b.json('/api/auth/self-service/logout/browser')).json()) as { logout_token: string };
      expect(again.logout_token).toBe(token);

      const ended = await b.json(`/api/auth/self-service/logout?token=${encodeURIComponent(token)}`);
      expect(ended.status).toBe(204);
      expect(b.cookies.has(SESSION_COOKIE)).toBe(false);
      const row = await server.pool.query<{ active: boolean }>('select active from sessions where id = $1', [session.id]);
      expect(row.rows[0]?.active).toBe(false);

      const after = await b.json('/api/auth/sessions/whoami');
      expect(after.status).toBe(401);
      expect(((await after.json()) as KratosErrorResponse).error.id).toBe('session_inactive');
    });

    it('logs out through the browser logout URL, redirecting to return_to, after which the old cookie no longer works', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const cookie = `${SESSION_COOKIE}=${b.cookies.get(SESSION_COOKIE) ?? ''}`;
      const { logout_url: url } = (await (await b.json('/api/auth/self-service/logout/browser?return_to=/goodbye')).json()) as { logout_url: string };
      const navigation = await b.request(new URL(url).pathname + new URL(url).search);
      expect(navigation.status).toBe(303);
      expect(navigation.headers.get('location')).toBe('/goodbye');
      const replayed = await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { cookie } });
      expect(replayed.status).toBe(401);
    });

    it('sends a browser with an unknown logout token to the login page and tells a JSON client 401', async () => {
      const navigation = await browser().request('/api/auth/self-service/logout?token=unknown');
      expect(navigation.status).toBe(303);
      expect(navigation.headers.get('location')).toBe('/login');
      const json = await browser().json('/api/auth/self-service/logout?token=unknown');
      expect(json.status).toBe(401);
    });

    it('refuses to hand out a logout URL without a session', async () => {
      const response = await browser().json('/api/auth/self-service/logout/browser');
      expect(response.status).toBe(401);
      expect(((await response.json()) as KratosErrorResponse).error.id).toBe('session_inactive');
    });

    it('stores only the SHA-256 of the session token, never the cookie value', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const token = b.cookies.get(SESSION_COOKIE) ?? '';
      expect(token.length).toBeGreaterThan(40);
      const dump = await server.pool.query<{ row: string }>('select s::text as row from sessions s');
      expect(dump.rows.some((r) => r.row.includes(token))).toBe(false);
      const hashed = await server.pool.query('select 1 from sessions where token_hash = $1', [hashToken(token)]);
      expect(hashed.rowCount).toBe(1);
    });

    it('reads roles fresh from person_roles on every whoami, and treats no roles as viewer', async () => {
      const id = await createPerson('roles@opsdeck.local', ['responder']);
      const b = browser();
      expect((await b.signIn('roles@opsdeck.local', PASSWORD)).status).toBe(200);
      const first = (await (await b.json('/api/auth/sessions/whoami')).json()) as WhoamiBody;
      expect(first.roles).toEqual(['responder']);

      await server.pool.query(`insert into person_roles (person_id, role) values ($1, 'editor')`, [id]);
      const second = (await (await b.json('/api/auth/sessions/whoami')).json()) as WhoamiBody;
      expect(second.roles).toEqual(['editor', 'responder']);

      await server.pool.query('delete from person_roles where person_id = $1', [id]);
      const third = (await (await b.json('/api/auth/sessions/whoami')).json()) as WhoamiBody;
      expect(third.roles).toEqual(['viewer']);
    });

    it('sweeps expired sessions, stale flows and old login failures', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const token = b.cookies.get(SESSION_COOKIE) ?? '';
      const live = browser();
      expect((await live.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const flow = await browser().startLogin();
      await server.pool.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [hashToken(token)]);
      await server.pool.query(`update self_service_flows set expires_at = now() - interval '2 days' where id = $1`, [flow.id]);
      await server.pool.query(`insert into login_failures (identifier_hash, address_hash, failed_at) values ('old', 'old', now() - interval '1 hour')`);

      await sweepAuthState(server.pool, LOGIN_FAILURE_WINDOW_MS);

      expect((await server.pool.query('select 1 from sessions where token_hash = $1', [hashToken(token)])).rowCount).toBe(0);
      expect((await server.pool.query('select 1 from self_service_flows where id = $1', [flow.id])).rowCount).toBe(0);
      expect((await server.pool.query(`select 1 from login_failures where identifier_hash = 'old'`)).rowCount).toBe(0);
      expect((await live.json('/api/auth/sessions/whoami')).status).toBe(200);
    });
  });

  describe('kubeconfig', () => {
    it('downloads a kubeconfig whose token is a new revocable 30-day session that authenticates as a bearer token', async () => {
      const b = browser();
      expect((await b.signIn('admin@opsdeck.local', PASSWORD)).status).toBe(200);
      const response = await b.request('/api/kubeconfig', { method: 'POST', headers: { 'x-requested-with': 'XMLHttpRequest' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="kubeconfig.yaml"');
      expect(response.headers.get('content-type')).toMatch(/yaml/);
      const config = parse(await response.text()) as {
        kind: string;
        'current-context': string;
        clusters: { name: string; cluster: { server: string } }[];
        users: { name: string; user: { token: string } }[];
        contexts: { name: string; context: { cluster: string; user: string } }[];
      };
      expect(config.kind).toBe('Config');
      expect(config.clusters).toEqual([{ name: 'opsdeck', cluster: { server: `${server.url}/api` } }]);
      expect(config['current-context']).toBe('opsdeck');
      expect(config.contexts).toEqual([{ name: 'opsdeck', context: { cluster: 'opsdeck', user: 'admin@opsdeck.local' } }]);
      const token = config.users[0]?.user.token ?? '';
      expect(token).not.toBe(b.cookies.get(SESSION_COOKIE));

      const row = await server.pool.query<{ days: number }>(
        'select round(extract(epoch from expires_at - issued_at) / 86400)::int as days from sessions where token_hash = $1',
        [hashToken(token)],
      );
      expect(row.rows[0]?.days).toBe(30);

      const whoami = await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { authorization: `Bearer ${token}` } });
      expect(whoami.status).toBe(200);
      const session = (await whoami.json()) as WhoamiBody;
      expect(session.person.email).toBe('admin@opsdeck.local');
      expect(session.authentication_methods[0]?.method).toBe('kubeconfig');

      await server.pool.query('update sessions set active = false where token_hash = $1', [hashToken(token)]);
      const revoked = await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { authorization: `Bearer ${token}` } });
      expect(revoked.status).toBe(401);
    });

    it('refuses the download without a session', async () => {
      const response = await fetch(`${server.url}/api/kubeconfig`, { method: 'POST', headers: { 'x-requested-with': 'XMLHttpRequest' } });
      expect(response.status).toBe(401);
    });
  });
});
