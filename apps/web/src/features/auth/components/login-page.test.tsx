import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { SelfServiceFlow, FlowUiNode } from '../api/flow-types';
import { authRoutes } from '../routes';
import { csrf, errorText, flowOf, input, submit, withFieldError } from '../test-flows';

const ACTION = '/api/auth/self-service/login?flow=flow-1';

function inputNode(name: string, type: string, label: string | null, extra: Partial<FlowUiNode> = {}): FlowUiNode {
  return {
    type: 'input',
    group: type === 'hidden' ? 'default' : 'password',
    attributes: { node_type: 'input', name, type, value: type === 'hidden' ? 'csrf-123' : '', required: type !== 'hidden', disabled: false },
    messages: [],
    meta: label === null ? {} : { label: { text: label } },
    ...extra,
  };
}

function loginFlow(id = 'flow-1', overrides: Partial<SelfServiceFlow['ui']> = {}): SelfServiceFlow {
  return {
    id,
    return_to: '',
    ui: {
      action: ACTION,
      method: 'POST',
      nodes: [
        inputNode('csrf_token', 'hidden', null),
        inputNode('identifier', 'text', 'Email'),
        inputNode('password', 'password', 'Password'),
        {
          type: 'input',
          group: 'password',
          attributes: { node_type: 'input', name: 'method', type: 'submit', value: 'password', disabled: false },
          messages: [],
          meta: { label: { text: 'Sign in' } },
        },
      ],
      ...overrides,
    },
  };
}

function secondFactorFlow(): SelfServiceFlow {
  return flowOf(
    'login',
    'flow-2fa',
    [
      csrf(),
      input('totp', 'totp_code', 'text', 'Authentication code'),
      submit('totp', 'method', 'totp', 'Use authenticator app'),
      input('lookup_secret', 'lookup_secret', 'text', 'Backup recovery code'),
      submit('lookup_secret', 'method', 'lookup_secret', 'Use backup recovery code'),
      input('webauthn', 'webauthn_login_trigger', 'button', 'Use security key', { value: JSON.stringify({ challenge: 'abc' }) }),
      input('webauthn', 'webauthn_login', 'hidden', null),
    ],
    { requested_aal: 'aal2', refresh: false },
  );
}

const submissions: unknown[] = [];
let flowsCreated = 0;

const server = setupMswServer(
  http.get('/api/auth/self-service/login/browser', () => {
    flowsCreated += 1;
    return HttpResponse.json(loginFlow());
  }),
  http.get('/api/auth/self-service/login/flows', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id');
    if (id === 'flow-1') return HttpResponse.json(loginFlow());
    return HttpResponse.json({ error: { id: 'self_service_flow_expired', code: 410, message: 'Flow expired' } }, { status: 410 });
  }),
  http.post('/api/auth/self-service/login', async ({ request }) => {
    submissions.push(await request.json());
    return HttpResponse.json({ session: { id: 'session-1' }, identity: { id: 'person-1' } });
  }),
  http.get('/api/auth/sessions/whoami', () => HttpResponse.json({ code: 'OD401', message: 'Authentication required' }, { status: 401 })),
  http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'self-hosted', registration_enabled: false })),
);

afterEach(() => {
  cleanup();
  server.resetHandlers();
  submissions.length = 0;
  flowsCreated = 0;
});

function renderLogin(path = '/login') {
  return renderRoutes(
    [
      ...authRoutes.filter((route) => route.path !== 'recovery'),
      { path: '/', element: <h1>Home</h1> },
      { path: '/settings/feature-flags', element: <h1>Feature flags</h1> },
      { path: '/recovery', element: <h1>Recovery</h1> },
    ],
    path,
    { toaster: true },
  ).router;
}

describe('LoginPage', () => {
  it('renders the form from the nodes of a new login flow', async () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'Sign In to your account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Email')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reset password' })).toHaveAttribute('href', '/recovery');
    expect(document.querySelector('input[type="hidden"][name="csrf_token"]')).toHaveValue('csrf-123');
  });

  it('titles the second-factor and refresh variants', async () => {
    renderLogin('/login?aal=aal2');
    expect(screen.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    cleanup();
    renderLogin('/login?refresh=true');
    expect(screen.getByRole('heading', { name: 'Confirm Action' })).toBeInTheDocument();
  });

  it('sends the credentials with the CSRF token and returns to the requested page', async () => {
    const user = userEvent.setup();
    const router = renderLogin('/login?return_to=%2Fsettings%2Ffeature-flags');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Feature flags' })).toBeInTheDocument();
    expect(submissions).toEqual([{ method: 'password', csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'correct horse' }]);
    expect(router.state.location.pathname).toBe('/settings/feature-flags');
  });

  it('asks for no new login flow once the sign-in succeeded, which the new session would turn into a 400', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(flowsCreated).toBe(1);
  });

  it('refuses a return target on another origin and goes home instead', async () => {
    const user = userEvent.setup();
    renderLogin('/login?return_to=https%3A%2F%2Fevil.example%2F');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('shows field and form messages from a 400 answer and keeps the flow id in the address', async () => {
    server.use(
      http.post('/api/auth/self-service/login', () => {
        const flow = loginFlow('flow-1', { messages: [{ id: 4000006, type: 'error', text: 'The provided credentials are invalid.' }] });
        const identifier = flow.ui.nodes[1];
        if (identifier !== undefined) identifier.messages = [{ id: 4000002, type: 'error', text: 'Property identifier is missing.' }];
        return HttpResponse.json(flow, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    const router = renderLogin();
    await screen.findByLabelText('Email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Property identifier is missing.')).toHaveClass('text-red-600');
    expect(screen.getByText('The provided credentials are invalid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBe('flow-1');
  });

  it('blocks a second submit and shows a spinner while the first is running', async () => {
    // Made before the request, so the test can let the answer go whether or not the request has reached the handler.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('/api/auth/self-service/login', async ({ request }) => {
        submissions.push(await request.json());
        await released;
        return HttpResponse.json({ session: { id: 'session-1' }, identity: { id: 'person-1' } });
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    await screen.findByLabelText('Email');
    const button = screen.getByRole('button', { name: 'Sign in' });
    await user.click(button);
    await user.click(button);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(submissions).toHaveLength(1);
  });

  it('prefills the credentials from the address and signs in by itself', async () => {
    renderLogin('/login?identifier=ada%40example.com&password=pw');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(submissions).toEqual([{ method: 'password', csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'pw' }]);
  });

  it('starts a new flow when the flow id in the address is no longer valid', async () => {
    renderLogin('/login?flow=stale-flow');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
  });

  it('restarts with a fresh flow and a toast when the flow expired during submit', async () => {
    let created = 0;
    server.use(
      http.get('/api/auth/self-service/login/browser', () => {
        created += 1;
        return HttpResponse.json(loginFlow(`flow-${created}`));
      }),
      http.post('/api/auth/self-service/login', () =>
        HttpResponse.json({ error: { id: 'self_service_flow_expired', code: 410, message: 'Flow expired' } }, { status: 410 }),
      ),
    );
    const user = userEvent.setup();
    const router = renderLogin();
    await screen.findByLabelText('Email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeInTheDocument();
    await waitFor(() => expect(created).toBe(2));
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });

  it('warns about a CSRF violation and starts over', async () => {
    server.use(
      http.post('/api/auth/self-service/login', () =>
        HttpResponse.json({ error: { id: 'security_csrf_violation', code: 403, message: 'CSRF' } }, { status: 403 }),
      ),
    );
    const user = userEvent.setup();
    renderLogin();
    await screen.findByLabelText('Email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('A security violation was detected, please fill out the form again.')).toBeInTheDocument();
  });

  it('goes home when a session already exists', async () => {
    server.use(
      http.get('/api/auth/self-service/login/browser', () =>
        HttpResponse.json({ error: { id: 'session_already_available', code: 400, message: 'A valid session was detected' } }, { status: 400 }),
      ),
    );
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('shows the server message of an unexpected failure as a toast', async () => {
    server.use(
      http.post('/api/auth/self-service/login', () =>
        HttpResponse.json({ code: 'OD500', message: 'The identity store is unreachable', details: null, hint: null }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderLogin();
    await screen.findByLabelText('Email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The identity store is unreachable')).toBeInTheDocument();
  });
  it('offers to create an account only when registration is open', async () => {
    renderLogin('/login?return_to=%2Fsettings%2Ffeature-flags');
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('link', { name: 'Create account' })).toBeNull();
    cleanup();
    server.use(http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'self-hosted', registration_enabled: true })));
    renderLogin('/login?return_to=%2Fsettings%2Ffeature-flags');
    expect(await screen.findByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/registration?return_to=%2Fsettings%2Ffeature-flags');
  });

  it('names the second step after the flow and offers each second factor as its own form', async () => {
    server.use(http.get('/api/auth/self-service/login/browser', () => HttpResponse.json(secondFactorFlow())));
    renderLogin('/login');
    expect(await screen.findByRole('heading', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
    expect(screen.getByLabelText('Backup recovery code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use security key' })).toBeInTheDocument();
    expect(document.querySelectorAll('form')).toHaveLength(3);
    expect(screen.queryByRole('link', { name: 'Reset password' })).toBeNull();
  });

  it('sends the clicked second factor as the method and returns to return_to', async () => {
    server.use(http.get('/api/auth/self-service/login/browser', () => HttpResponse.json(secondFactorFlow())));
    const user = userEvent.setup();
    const router = renderLogin('/login?aal=aal2&return_to=%2Fsettings%2Ffeature-flags');
    await user.type(await screen.findByLabelText('Backup recovery code'), 'a1b2c3d4');
    await user.click(screen.getByRole('button', { name: 'Use backup recovery code' }));
    expect(await screen.findByRole('heading', { name: 'Feature flags' })).toBeInTheDocument();
    expect(submissions).toEqual([{ method: 'lookup_secret', csrf_token: 'csrf-123', lookup_secret: 'a1b2c3d4' }]);
    expect(router.state.location.pathname).toBe('/settings/feature-flags');
  });

  it('submits the authenticator code with Enter in its own field', async () => {
    server.use(http.get('/api/auth/self-service/login/browser', () => HttpResponse.json(secondFactorFlow())));
    const user = userEvent.setup();
    renderLogin('/login?aal=aal2');
    await user.type(await screen.findByLabelText('Authentication code'), '123456{Enter}');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(submissions).toEqual([{ method: 'totp', csrf_token: 'csrf-123', totp_code: '123456' }]);
  });

  it('shows a wrong second-factor code under its field', async () => {
    server.use(
      http.get('/api/auth/self-service/login/browser', () => HttpResponse.json(secondFactorFlow())),
      http.post('/api/auth/self-service/login', () =>
        HttpResponse.json(withFieldError(secondFactorFlow(), 'totp_code', errorText('This authentication code is not valid or was already used.', 4000008)), { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderLogin('/login?aal=aal2');
    await user.type(await screen.findByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Use authenticator app' }));
    expect(await screen.findByText('This authentication code is not valid or was already used.')).toHaveClass('text-red-600');
    expect(screen.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
  });

  it('names a re-authentication after the flow and goes back to the settings flow that asked for it', async () => {
    server.use(
      http.get('/api/auth/self-service/login/browser', () =>
        HttpResponse.json(
          flowOf(
            'login',
            'flow-1',
            [csrf(), input('default', 'identifier', 'hidden', null, { value: 'ada@example.com' }), input('password', 'password', 'password', 'Password'), submit('password', 'method', 'password', 'Confirm')],
            { refresh: true, requested_aal: 'aal1', return_to: '/profile-settings?flow=set-1' },
            [{ id: 1010003, type: 'info', text: 'Please confirm this action by verifying that it is you.' }],
          ),
        ),
      ),
    );
    const user = userEvent.setup();
    const router = renderRoutes([...authRoutes.filter((route) => route.path !== 'profile-settings'), { path: '/profile-settings', element: <h1>Settings</h1> }], '/login?refresh=true&return_to=%2Fprofile-settings%3Fflow%3Dset-1').router;
    expect(await screen.findByRole('heading', { name: 'Confirm Action' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/profile-settings?flow=set-1');
    expect(submissions).toEqual([{ method: 'password', csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'correct horse' }]);
  });
  it('moves on to the second factor after the password step and then returns to return_to', async () => {
    const secondStepCreations: string[] = [];
    server.use(
      http.get('/api/auth/self-service/login/browser', ({ request }) => {
        const url = new URL(request.url);
        if (url.searchParams.get('aal') !== 'aal2') return HttpResponse.json(loginFlow());
        secondStepCreations.push(url.searchParams.get('return_to') ?? '');
        return HttpResponse.json(secondFactorFlow());
      }),
      http.post('/api/auth/self-service/login', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        submissions.push(body);
        const session = { session: { id: 'session-1' }, identity: { id: 'person-1' } };
        if (body.method !== 'password') return HttpResponse.json(session);
        return HttpResponse.json({
          ...session,
          continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: '/login?aal=aal2&return_to=%2Fsettings%2Ffeature-flags' }],
        });
      }),
    );
    const user = userEvent.setup();
    const router = renderLogin('/login?flow=flow-1&return_to=%2Fsettings%2Ffeature-flags');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Use authenticator app' }));
    expect(await screen.findByRole('heading', { name: 'Feature flags' })).toBeInTheDocument();
    expect(secondStepCreations).toEqual(['/settings/feature-flags']);
    expect(submissions).toEqual([
      { method: 'password', csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'correct horse' },
      { method: 'totp', csrf_token: 'csrf-123', totp_code: '123456' },
    ]);
    expect(router.state.location.pathname).toBe('/settings/feature-flags');
  });
  it('falls back to a plain sign-in with the same return_to when the second step has no session behind it', async () => {
    server.use(
      http.get('/api/auth/self-service/login/browser', ({ request }) => {
        if (new URL(request.url).searchParams.get('aal') === 'aal2') {
          return HttpResponse.json({ error: { id: 'session_inactive', code: 401, status: 'Unauthorized', message: 'no session' } }, { status: 401 });
        }
        return HttpResponse.json(loginFlow());
      }),
    );
    const router = renderLogin('/login?aal=aal2&return_to=%2Fsettings%2Ffeature-flags');
    expect(await screen.findByRole('heading', { name: 'Sign In to your account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?return_to=%2Fsettings%2Ffeature-flags');
  });
});
