import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderRoutes } from '@/test/render';
import { readRequest, setupMswServer, TEST_PERSON, type RecordedRequest } from '@/test/msw';
import { HostedModeGate } from './hosted-mode-gate';
import { PROVISIONING_POLL_MS, PROVISIONING_TEXT } from './components/provisioning-screen';

function whoami(method: string) {
  return HttpResponse.json({
    id: 's1',
    active: true,
    identity: { id: TEST_PERSON.id, traits: {} },
    person: TEST_PERSON,
    roles: ['editor'],
    authentication_methods: [{ method, aal: 'aal1', completed_at: '2026-01-01T00:00:00Z' }],
  });
}

const switches: RecordedRequest[] = [];
const server = setupMswServer();

afterEach(() => {
  switches.length = 0;
  vi.useRealTimers();
});

function renderGate(path = '/health?tab=all') {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <HostedModeGate>
            <p>The shell</p>
          </HostedModeGate>
        ),
        children: [{ path: '*', element: null }],
      },
      { path: '/organizations/orgs-switched', element: <p>Switched</p> },
    ],
    path,
  );
}

describe('HostedModeGate', () => {
  it('lets a session of the built-in sign-in straight through, asking nothing more', async () => {
    // Any request besides whoami would be unhandled and fail the test.
    server.use(http.get('/api/auth/sessions/whoami', () => whoami('password')));
    renderGate();
    expect(await screen.findByText('The shell')).toBeInTheDocument();
  });

  it('asks a hosted person with several organizations and none chosen to pick one, then continues through orgs-switched', async () => {
    server.use(
      http.get('/api/auth/sessions/whoami', () => whoami('oidc')),
      http.get('/api/auth/organizations', () =>
        HttpResponse.json({ organizations: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }], current: null }),
      ),
      http.post('/api/auth/organizations/switch', async ({ request }) => {
        switches.push(await readRequest(request));
        return HttpResponse.json({ organizations: [], current: { id: 'globex', name: 'Globex' } });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderGate();
    expect(await screen.findByRole('heading', { name: 'Choose an organization' })).toBeInTheDocument();
    expect(screen.queryByText('The shell')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Globex' }));
    expect(await screen.findByText('Switched')).toBeInTheDocument();
    expect(switches.map((request) => request.body)).toEqual([{ id: 'globex' }]);
    expect(router.state.location.pathname).toBe('/organizations/orgs-switched');
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/health?tab=all');
  });

  it('shows the shell to a hosted person whose session already has an organization', async () => {
    server.use(
      http.get('/api/auth/sessions/whoami', () => whoami('oidc')),
      http.get('/api/auth/organizations', () =>
        HttpResponse.json({ organizations: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }], current: { id: 'acme', name: 'Acme Corp' } }),
      ),
    );
    renderGate();
    expect(await screen.findByText('The shell')).toBeInTheDocument();
  });

  it('waits on the provisioning screen while the hosted session check answers 503, until it answers', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let ready = false;
    server.use(
      http.get('/api/auth/sessions/whoami', () => (ready ? whoami('password') : HttpResponse.json({ message: 'starting' }, { status: 503 }))),
      http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'hosted', provider_name: 'Acme SSO', registration_enabled: false })),
    );
    renderGate();
    expect(await screen.findByText(PROVISIONING_TEXT)).toBeInTheDocument();

    ready = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROVISIONING_POLL_MS);
    });
    expect(await screen.findByText('The shell')).toBeInTheDocument();
  });

  it('treats a 404 from the session check in hosted mode as provisioning too', async () => {
    server.use(
      http.get('/api/auth/sessions/whoami', () => HttpResponse.json({ message: 'no such instance' }, { status: 404 })),
      http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'hosted', registration_enabled: false })),
    );
    renderGate();
    expect(await screen.findByText(PROVISIONING_TEXT)).toBeInTheDocument();
  });

  it('leaves a failed session check to the shell (and its error page) outside hosted mode', async () => {
    server.use(
      http.get('/api/auth/sessions/whoami', () => HttpResponse.json({ message: 'boom' }, { status: 500 })),
      http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'self-hosted', registration_enabled: false })),
    );
    renderGate();
    expect(await screen.findByText('The shell')).toBeInTheDocument();
    expect(screen.queryByText(PROVISIONING_TEXT)).not.toBeInTheDocument();
  });
});
