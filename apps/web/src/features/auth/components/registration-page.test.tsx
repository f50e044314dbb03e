import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, type AuthModeName } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { SelfServiceFlow } from '../api/flow-types';
import { authRoutes } from '../routes';
import { csrf, errorText, flowOf, input, kratosError, submit, withFieldError } from '../test-flows';

function registrationFlow(id = 'reg-1', returnTo?: string): SelfServiceFlow {
  return flowOf(
    'registration',
    id,
    [
      csrf(),
      input('password', 'traits.email', 'email', 'E-Mail'),
      input('password', 'traits.name.first', 'text', 'First Name'),
      input('password', 'traits.name.last', 'text', 'Last Name'),
      input('password', 'password', 'password', 'Password'),
      submit('password', 'method', 'password', 'Sign up'),
    ],
    returnTo === undefined ? {} : { return_to: returnTo },
  );
}

const created: URL[] = [];
const submissions: unknown[] = [];

let mode: AuthModeName = 'self-hosted';

const server = setupMswServer(
  authModeHandler(() => mode),
  http.get('/api/auth/self-service/registration/browser', ({ request }) => {
    const url = new URL(request.url);
    created.push(url);
    return HttpResponse.json(registrationFlow(`reg-${created.length}`, url.searchParams.get('return_to') ?? undefined));
  }),
  http.get('/api/auth/self-service/registration/flows', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id');
    return id === 'reg-known' ? HttpResponse.json(registrationFlow('reg-known')) : kratosError(404, undefined);
  }),
  http.post('/api/auth/self-service/registration', async ({ request }) => {
    submissions.push(await request.json());
    return HttpResponse.json({ session: { id: 'session-1' }, identity: { id: 'person-1' } });
  }),
);

afterEach(() => {
  cleanup();
  mode = 'self-hosted';
  created.length = 0;
  submissions.length = 0;
});

function renderRegistration(path = '/registration') {
  return renderRoutes(
    [...authRoutes, { path: '/', element: <h1>Home</h1> }, { path: '/incidents', element: <h1>Incidents</h1> }],
    path,
    { toaster: true },
  ).router;
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('E-Mail'), 'grace@example.com');
  await user.type(screen.getByLabelText('First Name'), 'Grace');
  await user.type(screen.getByLabelText('Last Name'), 'Hopper');
  await user.type(screen.getByLabelText('Password'), 'a long and unusual passphrase');
}

describe('RegistrationPage', () => {
  it('renders the registration form with a way to sign in instead', async () => {
    renderRegistration();
    expect(screen.getByRole('heading', { name: 'Create account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('E-Mail')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await waitFor(() => expect(document.title).toBe('Register | Opsdeck'));
  });

  it('passes return_to and the after-verification target to the new flow', async () => {
    renderRegistration('/registration?return_to=%2Fincidents&after_verification_return_to=%2Fhealth');
    await screen.findByLabelText('E-Mail');
    expect(created[0]?.searchParams.get('return_to')).toBe('/incidents');
    expect(created[0]?.searchParams.get('after_verification_return_to')).toBe('/health');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?return_to=%2Fincidents');
  });

  it('submits the traits and password and goes to the flow return target', async () => {
    const user = userEvent.setup();
    const router = renderRegistration('/registration?return_to=%2Fincidents');
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Incidents' })).toBeInTheDocument();
    expect(submissions).toEqual([
      {
        csrf_token: 'csrf-123',
        'traits.email': 'grace@example.com',
        'traits.name.first': 'Grace',
        'traits.name.last': 'Hopper',
        password: 'a long and unusual passphrase',
        method: 'password',
      },
    ]);
    expect(router.state.location.pathname).toBe('/incidents');
  });

  it('goes home after signing up when no return target was given', async () => {
    const user = userEvent.setup();
    renderRegistration();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('shows the field errors of a 400 answer and puts the flow id into the address', async () => {
    server.use(
      http.post('/api/auth/self-service/registration', () =>
        HttpResponse.json(withFieldError(registrationFlow('reg-1'), 'password', errorText('This password appeared in a data breach; choose another.')), { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    const router = renderRegistration();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('This password appeared in a data breach; choose another.')).toHaveClass('text-red-600');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBe('reg-1');
  });

  it('continues a flow named in the address', async () => {
    renderRegistration('/registration?flow=reg-known');
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(created).toHaveLength(0);
  });

  it('refuses a return target the service forbids with a toast and starts without it', async () => {
    let calls = 0;
    server.use(
      http.get('/api/auth/self-service/registration/browser', ({ request }) => {
        calls += 1;
        const url = new URL(request.url);
        if (url.searchParams.has('return_to')) return kratosError(400, 'self_service_flow_return_to_forbidden');
        return HttpResponse.json(registrationFlow('reg-clean'));
      }),
    );
    const router = renderRegistration('/registration?return_to=https%3A%2F%2Fevil.example%2F');
    expect(await screen.findByText('The return_to address is not allowed.')).toBeInTheDocument();
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(calls).toBe(2);
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBeNull();
  });

  it('starts a fresh flow with a toast when the flow expired during submit', async () => {
    server.use(http.post('/api/auth/self-service/registration', () => kratosError(410, 'self_service_flow_expired')));
    const user = userEvent.setup();
    const router = renderRegistration();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeInTheDocument();
    await waitFor(() => expect(created).toHaveLength(2));
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });

  it('warns about a CSRF violation and starts over', async () => {
    server.use(http.post('/api/auth/self-service/registration', () => kratosError(403, 'security_csrf_violation')));
    const user = userEvent.setup();
    renderRegistration();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('A security violation was detected, please fill out the form again.')).toBeInTheDocument();
    await waitFor(() => expect(created).toHaveLength(2));
  });

  it('explains a refused registration and offers to try again', async () => {
    server.use(
      http.get('/api/auth/self-service/registration/browser', () =>
        HttpResponse.json({ error: { id: 'self_service_flow_disabled', code: 400, status: 'Bad Request', message: 'registration is not open on this server' } }, { status: 400 }),
      ),
    );
    renderRegistration();
    expect(await screen.findByRole('alert')).toHaveTextContent('The registration form could not be loaded: registration is not open on this server');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('goes home when a session already exists', async () => {
    server.use(http.get('/api/auth/self-service/registration/browser', () => kratosError(400, 'session_already_available')));
    renderRegistration();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('sends people to the provider to sign up in hosted mode, without opening a built-in registration flow', async () => {
    mode = 'hosted';
    renderRegistration('/registration?return_to=%2Fincidents');
    const link = await screen.findByRole('link', { name: 'Sign up with Example ID' });
    expect(link.getAttribute('href')).toContain('/api/auth/oidc/login');
    expect(created).toHaveLength(0);
  });
});
