import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createTestQueryClient, renderRoutes } from '@/test/render';
import { readRequest, setupMswServer, TEST_PERSON, type RecordedRequest } from '@/test/msw';
import { browserLocation } from '@/lib/auth/hosted/hosted-urls';
import { organizationsRoutes } from '../routes';

const HOSTED = { 'opsdeck-auth-mode': 'hosted' };
const SIGNED_OUT = { error: { id: 'session_inactive', code: 401, status: 'Unauthorized', message: 'no session' } };
const SESSION = { id: 's1', active: true, identity: { id: TEST_PERSON.id, traits: {} }, person: TEST_PERSON, roles: ['viewer'] };

const switches: RecordedRequest[] = [];
const server = setupMswServer(
  http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'hosted', provider_name: 'Acme SSO', registration_enabled: false })),
);

afterEach(() => {
  switches.length = 0;
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

const routes = [
  ...organizationsRoutes,
  { path: '/incidents', element: <p>Incidents page</p> },
  { path: '/login', element: <p>Sign-in page</p> },
  { path: '/', element: <p>Home page</p> },
];

describe('/auth-state-checker', () => {
  it('goes back to return_to when the session turns out to be fine', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SESSION)));
    const { router } = renderRoutes(routes, '/auth-state-checker?return_to=%2Fincidents%3Fstatus%3Dopen');
    expect(await screen.findByText('Incidents page')).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/incidents?status=open');
  });

  it("sends a signed-out hosted visitor to the provider's sign-in with the way back", async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401, headers: HOSTED })));
    renderRoutes(routes, '/auth-state-checker?return_to=%2Fincidents');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/auth/oidc/login?return_to=%2Fincidents'));
    expect(screen.getByText('Taking you to Acme SSO…')).toBeInTheDocument();
  });

  it('offers the sign-in instead of redirecting again when it sent the browser away moments ago', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    window.sessionStorage.setItem('opsdeck.auth-state-checker.sent-at', String(Date.now()));
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401, headers: HOSTED })));
    renderRoutes(routes, '/auth-state-checker?return_to=%2Fincidents');
    expect(await screen.findByRole('link', { name: 'Sign in with Acme SSO' })).toHaveAttribute('href', '/api/auth/oidc/login?return_to=%2Fincidents');
    expect(assign).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor of the built-in sign-in to /login', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SIGNED_OUT, { status: 401 })));
    const { router } = renderRoutes(routes, '/auth-state-checker?return_to=%2Fincidents');
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/incidents');
  });

  it('never returns to another origin or to itself', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(SESSION)));
    renderRoutes(routes, '/auth-state-checker?return_to=https%3A%2F%2Fevil.example%2F');
    expect(await screen.findByText('Home page')).toBeInTheDocument();
  });
});

describe('/organizations/orgs-switched', () => {
  it('forgets every cached answer and goes home', async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(['incidents', 'list'], [{ id: 'INC-1' }]);
    renderRoutes(routes, '/organizations/orgs-switched', { queryClient });
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(queryClient.getQueryData(['incidents', 'list'])).toBeUndefined();
  });

  it('continues to a return_to on this console', async () => {
    renderRoutes(routes, '/organizations/orgs-switched?return_to=%2Fincidents');
    expect(await screen.findByText('Incidents page')).toBeInTheDocument();
  });
});

describe('/organizations/select', () => {
  it('lists the organizations and switches to the chosen one', async () => {
    server.use(
      http.get('/api/auth/organizations', () =>
        HttpResponse.json({ organizations: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }], current: null }),
      ),
      http.post('/api/auth/organizations/switch', async ({ request }) => {
        switches.push(await readRequest(request));
        return HttpResponse.json({ organizations: [], current: { id: 'acme', name: 'Acme Corp' } });
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/organizations/select?return_to=%2Fincidents');
    await user.click(await screen.findByRole('button', { name: 'Acme Corp' }));
    expect(await screen.findByText('Incidents page')).toBeInTheDocument();
    expect(switches.map((request) => request.body)).toEqual([{ id: 'acme' }]);
  });

  it('goes straight on when there is nothing to choose', async () => {
    server.use(http.get('/api/auth/organizations', () => HttpResponse.json({ organizations: [{ id: 'acme', name: 'Acme Corp' }], current: { id: 'acme', name: 'Acme Corp' } })));
    renderRoutes(routes, '/organizations/select?return_to=%2Fincidents');
    expect(await screen.findByText('Incidents page')).toBeInTheDocument();
  });
});
