import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/shared/session-token';
import type { RouteRecord } from '../src/platform/http';
import { startTestServer, type TestServer } from './harness';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes that can be called as registered: under /api, not public, with no path parameters or wildcards. */
function guardedRoutes(routes: readonly RouteRecord[]): RouteRecord[] {
  return routes.filter(
    (route) =>
      route.url.startsWith('/api/') &&
      route.permission !== 'public' &&
      !route.url.includes(':') &&
      !route.url.includes('*') &&
      route.method !== 'HEAD' &&
      route.method !== 'OPTIONS',
  );
}

describe('route permissions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function statusesWithout(credentials: Record<string, string>): Promise<string[]> {
    const wrong: string[] = [];
    for (const route of guardedRoutes(server.running.routes)) {
      const init: RequestInit = { method: route.method, headers: { accept: 'application/json', ...credentials } };
      if (BODY_METHODS.has(route.method)) {
        init.body = '{}';
        init.headers = { ...credentials, accept: 'application/json', 'content-type': 'application/json' };
      }
      const response = await fetch(`${server.url}${route.url}`, init);
      await response.arrayBuffer();
      if (response.status !== 401) wrong.push(`${route.method} ${route.url} answered ${response.status}`);
    }
    return wrong;
  }

  it('declares a permission on every registered route', () => {
    const undeclared = server.running.routes.filter((route) => route.permission === undefined).map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });

  it('walks the guarded routes, the identity ones included', () => {
    const urls = guardedRoutes(server.running.routes).map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(expect.arrayContaining(['GET /api/auth/sessions/whoami', 'GET /api/auth/self-service/logout/browser', 'GET /api/kubeconfig', 'POST /api/kubeconfig']));
  });

  it('answers 401 on every non-public API route when no session is sent', async () => {
    expect(await statusesWithout({})).toEqual([]);
  });

  it('answers 401 on every non-public API route for an unknown session cookie or bearer token', async () => {
    expect(await statusesWithout({ cookie: 'opsdeck_session=forged-token-value' })).toEqual([]);
    expect(await statusesWithout({ authorization: 'Bearer forged-token-value' })).toEqual([]);
    expect(await statusesWithout({ authorization: `Bearer odt_${'A'.repeat(43)}` })).toEqual([]);
  });

  it('answers 401 for a personal API token that has expired or was revoked', async () => {
    const cookie = await server.cookieFor('admin');
    const tokens: string[] = [];
    for (const name of ['expired', 'revoked']) {
      const reply = await server.call('POST', '/api/auth/api-tokens', cookie, { name, role: 'admin', expiresInDays: 1 });
      expect(reply.status).toBe(201);
      tokens.push(String(reply.json.token));
    }
    const [expired = '', revoked = ''] = tokens;
    await server.pool.query(`update api_tokens set expires_at = created_at + interval '1 millisecond' where token_hash = $1`, [hashToken(expired)]);
    await server.pool.query('update api_tokens set revoked_at = now() where token_hash = $1', [hashToken(revoked)]);
    expect(await statusesWithout({ authorization: `Bearer ${expired}` })).toEqual([]);
    expect(await statusesWithout({ authorization: `Bearer ${revoked}` })).toEqual([]);
  });

  it('answers 401 for a session that has expired or was logged out', async () => {
    const expired = await server.cookieFor('admin');
    const loggedOut = await server.cookieFor('editor');
    const tokenOf = (cookie: string): string => hashToken(cookie.slice(cookie.indexOf('=') + 1));
    await server.pool.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [tokenOf(expired)]);
    await server.pool.query('update sessions set active = false where token_hash = $1', [tokenOf(loggedOut)]);
    expect(await statusesWithout({ cookie: expired })).toEqual([]);
    expect(await statusesWithout({ cookie: loggedOut })).toEqual([]);
  });

  it('lets a valid session through the same guard', async () => {
    const response = await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { cookie: await server.cookieFor('viewer') } });
    expect(response.status).toBe(200);
  });
});
