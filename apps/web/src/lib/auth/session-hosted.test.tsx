import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { setAppNavigator } from '@/lib/app-navigator';
import { ApiError } from '@/lib/api/api-error';
import { fetchSession, isHostedSession, type Session } from './session';

const SIGNED_OUT = { error: { id: 'session_inactive', code: 401, status: 'Unauthorized', message: 'no session' } };
const server = setupMswServer();

let restore: () => void = () => undefined;
afterEach(() => restore());

function recordNavigation(currentPath: string): string[] {
  const visited: string[] = [];
  restore = setAppNavigator({ currentPath: () => currentPath, navigate: (to) => visited.push(to) });
  return visited;
}

describe('the session check in hosted mode', () => {
  it('sends a 401 to /auth-state-checker with the page to come back to', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401, headers: { 'opsdeck-auth-mode': 'hosted' } })));
    const visited = recordNavigation('/incidents?status=open');
    await expect(fetchSession()).rejects.toBeInstanceOf(ApiError);
    expect(visited).toEqual(['/auth-state-checker?return_to=%2Fincidents%3Fstatus%3Dopen']);
  });

  it('stays put when the 401 happens on /auth-state-checker itself', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401, headers: { 'opsdeck-auth-mode': 'hosted' } })));
    const visited = recordNavigation('/auth-state-checker?return_to=%2F');
    await expect(fetchSession()).rejects.toBeInstanceOf(ApiError);
    expect(visited).toEqual([]);
  });

  it('keeps sending a 401 of the built-in sign-in to /login', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401 })));
    const visited = recordNavigation('/incidents');
    await expect(fetchSession()).rejects.toBeInstanceOf(ApiError);
    expect(visited).toEqual(['/login?return_to=%2Fincidents']);
  });

  it('tells a session from the provider by its authentication method', () => {
    const base: Session = { id: 's', active: true, identity: { id: 'i', traits: {} }, person: { id: 'p', name: 'P', email: null, avatar: null }, roles: [] };
    expect(isHostedSession({ ...base, authentication_methods: [{ method: 'oidc' }] })).toBe(true);
    expect(isHostedSession({ ...base, authentication_methods: [{ method: 'password' }] })).toBe(false);
    expect(isHostedSession(base)).toBe(false);
  });
});
