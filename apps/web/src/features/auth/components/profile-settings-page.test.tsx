import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, type AuthModeName } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { SelfServiceFlow, FlowUiNode, UiText } from '../api/flow-types';
import { authRoutes } from '../routes';
import { csrf, errorText, flowOf, image, input, kratosError, submit, text, withFieldError } from '../test-flows';
import { PROFILE_MESSAGE_TTL_MS } from './profile-settings-page';

const PROFILE_NODES: FlowUiNode[] = [
  input('profile', 'traits.email', 'email', 'E-Mail', { value: 'ada@example.com' }),
  input('profile', 'traits.name.first', 'text', 'First Name', { value: 'Ada' }),
  input('profile', 'traits.name.last', 'text', 'Last Name', { value: 'Lovelace' }),
  submit('profile', 'method', 'profile', 'Save'),
];
const PASSWORD_NODES: FlowUiNode[] = [input('password', 'password', 'password', 'Password'), submit('password', 'method', 'password', 'Save')];
const LOOKUP_NODES: FlowUiNode[] = [submit('lookup_secret', 'lookup_secret_regenerate', 'true', 'Generate new backup recovery codes')];
const TOTP_NODES: FlowUiNode[] = [
  image('totp', 'totp_qr', 'data:image/png;base64,iVBORw0KGgo=', 'Authenticator app QR code'),
  text('totp', 'totp_secret_key', { id: 1050006, type: 'info', text: 'JBSWY3DPEHPK3PXP' }, 'Cannot scan the code? Enter this key instead.'),
  input('totp', 'totp_code', 'text', 'Verify code'),
  submit('totp', 'method', 'totp', 'Save'),
];
const WEBAUTHN_NODES: FlowUiNode[] = [
  input('webauthn', 'webauthn_register_displayname', 'text', 'Name of the security key'),
  input('webauthn', 'webauthn_register_trigger', 'button', 'Add security key', { value: JSON.stringify({ challenge: 'abc', rp: { name: 'Opsdeck' } }) }),
  input('webauthn', 'webauthn_register', 'hidden', null),
];

function settingsFlow(nodes: FlowUiNode[] = [...PROFILE_NODES, ...PASSWORD_NODES, ...LOOKUP_NODES, ...TOTP_NODES, ...WEBAUTHN_NODES], messages?: UiText[], id = 'set-1'): SelfServiceFlow {
  return flowOf('settings', id, [csrf(), ...nodes], { state: 'show_form', return_to: '' }, messages);
}

const SAVED: UiText = { id: 1050001, type: 'success', text: 'Your changes were saved.' };

let created = 0;
const submissions: Record<string, unknown>[] = [];

let mode: AuthModeName = 'self-hosted';

const server = setupMswServer(
  http.get('/api/auth/self-service/settings/browser', () => {
    created += 1;
    return HttpResponse.json(settingsFlow(undefined, undefined, `set-${created}`));
  }),
  http.get('/api/auth/self-service/settings/flows', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id') ?? '';
    return id === 'set-known' ? HttpResponse.json(settingsFlow(undefined, undefined, id)) : kratosError(404, undefined);
  }),
  http.post('/api/auth/self-service/settings', async ({ request }) => {
    submissions.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ ...settingsFlow(undefined, [SAVED]), state: 'success' });
  }),
  // The sign-in page the settings page sends people to.
  authModeHandler(() => mode),
  http.get('/api/auth/self-service/login/browser', () => HttpResponse.json(flowOf('login', 'login-1', [csrf()]))),
);

afterEach(() => {
  cleanup();
  mode = 'self-hosted';
  vi.useRealTimers();
  created = 0;
  submissions.length = 0;
});

function renderSettings(path = '/profile-settings') {
  return renderRoutes(
    [...authRoutes, { path: '/', element: <h1>Home</h1> }, { path: '/incidents', element: <h1>Incidents</h1> }],
    path,
    { toaster: true },
  ).router;
}

function card(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('ProfileSettingsPage', () => {
  it('shows one card per group of the flow, each with its own fields', async () => {
    renderSettings();
    expect(await screen.findByRole('region', { name: 'Profile Settings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile Management and Security Settings' })).toBeInTheDocument();
    expect(within(card('Profile Settings')).getByLabelText('E-Mail')).toHaveValue('ada@example.com');
    expect(within(card('Change Password')).getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(within(card('Manage 2FA Backup Recovery Codes')).getByText(/emergencies/)).toBeInTheDocument();
    expect(within(card('Manage 2FA TOTP Authenticator App')).getByRole('link', { name: 'Google Authenticator' })).toHaveAttribute('target', '_blank');
    expect(within(card('Manage Hardware Tokens and Biometrics')).getByRole('button', { name: 'Add security key' })).toBeInTheDocument();
    // Each card is its own form, so its Save sends only its group.
    expect(within(card('Change Password')).queryByLabelText('E-Mail')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Profile Management and Security Settings | Opsdeck'));
  });

  it('hides the cards of groups the flow has no nodes for', async () => {
    server.use(http.get('/api/auth/self-service/settings/browser', () => HttpResponse.json(settingsFlow([...PROFILE_NODES, ...PASSWORD_NODES]))));
    renderSettings();
    expect(await screen.findByRole('region', { name: 'Profile Settings' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Change Password' })).toBeInTheDocument();
    for (const hidden of ['Manage Social Sign In', 'Manage 2FA Backup Recovery Codes', 'Manage 2FA TOTP Authenticator App', 'Manage Hardware Tokens and Biometrics']) {
      expect(screen.queryByRole('region', { name: hidden })).toBeNull();
    }
  });

  it('goes back to return_to, or home without one', async () => {
    renderSettings('/profile-settings?return_to=%2Fincidents');
    expect(await screen.findByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/incidents');
    cleanup();
    renderSettings();
    expect(await screen.findByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });

  it('saves the profile with its method and shows the success message in that card', async () => {
    const user = userEvent.setup();
    const router = renderSettings();
    const firstName = await screen.findByLabelText('First Name');
    await user.clear(firstName);
    await user.type(firstName, 'Augusta');
    await user.click(within(card('Profile Settings')).getByRole('button', { name: 'Save' }));
    expect(await within(card('Profile Settings')).findByText('Your changes were saved.')).toBeInTheDocument();
    expect(submissions).toEqual([
      { csrf_token: 'csrf-123', 'traits.email': 'ada@example.com', 'traits.name.first': 'Augusta', 'traits.name.last': 'Lovelace', method: 'profile' },
    ]);
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBe('set-1');
  });

  it('shows the field error of a refused password', async () => {
    server.use(
      http.post('/api/auth/self-service/settings', () =>
        HttpResponse.json(withFieldError(settingsFlow(), 'password', errorText('The password must be at least 8 characters long.', 4000032)), { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderSettings();
    await user.type(await screen.findByLabelText('Password'), 'short');
    await user.click(within(card('Change Password')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The password must be at least 8 characters long.')).toHaveClass('text-red-600');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('clears the flow messages ten seconds after they arrive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    renderSettings();
    await user.click(within(await screen.findByRole('region', { name: 'Profile Settings' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes were saved.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(PROFILE_MESSAGE_TTL_MS - 1_000));
    expect(screen.getByText('Your changes were saved.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Your changes were saved.')).toBeNull();
  });

  it('shows the QR code and a copyable secret key for the authenticator app', async () => {
    renderSettings();
    const totp = await screen.findByRole('region', { name: 'Manage 2FA TOTP Authenticator App' });
    expect(within(totp).getByRole('img', { name: 'Authenticator app QR code' })).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(within(totp).getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    expect(within(totp).getByRole('button', { name: 'Copy the secret key' })).toBeInTheDocument();
  });

  it('lists recovery codes in a grid and marks spent ones as Used', async () => {
    const codes = text(
      'lookup_secret',
      'lookup_secret_codes',
      {
        id: 1050015,
        type: 'info',
        text: 'a1b2c3d4, Used, e5f6g7h8',
        context: {
          secrets: [
            { id: 1050009, type: 'info', text: 'a1b2c3d4' },
            { id: 1050014, type: 'info', text: 'Used' },
            { id: 1050009, type: 'info', text: 'e5f6g7h8' },
          ],
        },
      },
      'Keep these codes somewhere safe.',
    );
    server.use(http.get('/api/auth/self-service/settings/browser', () => HttpResponse.json(settingsFlow([codes, ...LOOKUP_NODES]))));
    renderSettings();
    const grid = await screen.findByRole('list', { name: 'Backup recovery codes' });
    expect(within(grid).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['a1b2c3d4', 'Used', 'e5f6g7h8']);
    expect(screen.getByRole('button', { name: 'Copy the backup recovery codes' })).toBeInTheDocument();
  });

  it('sends the lookup buttons with their group as the method', async () => {
    const user = userEvent.setup();
    renderSettings();
    await user.click(await screen.findByRole('button', { name: 'Generate new backup recovery codes' }));
    await waitFor(() => expect(submissions).toEqual([{ csrf_token: 'csrf-123', lookup_secret_regenerate: 'true', method: 'lookup_secret' }]));
  });

  it('sends a missing session to sign in and back to this page', async () => {
    server.use(http.get('/api/auth/self-service/settings/browser', () => kratosError(401, 'session_inactive')));
    const router = renderSettings('/profile-settings?return_to=%2Fincidents');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/profile-settings?return_to=%2Fincidents');
  });

  it('asks for a fresh sign-in before a sensitive change and comes back to the same flow', async () => {
    server.use(
      http.post('/api/auth/self-service/settings', () =>
        kratosError(403, 'session_refresh_required', { redirect_browser_to: '/login?refresh=true&return_to=%2Fprofile-settings%3Fflow%3Dset-1' }),
      ),
    );
    const user = userEvent.setup();
    const router = renderSettings();
    await user.type(await screen.findByLabelText('Password'), 'a brand new passphrase');
    await user.click(within(card('Change Password')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('refresh')).toBe('true');
    expect(query.get('return_to')).toBe('/profile-settings?flow=set-1');
  });

  it('adds this page as return_to when the service names no way back', async () => {
    server.use(http.post('/api/auth/self-service/settings', () => kratosError(403, 'session_refresh_required')));
    const user = userEvent.setup();
    const router = renderSettings();
    await user.click(within(await screen.findByRole('region', { name: 'Change Password' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/profile-settings?flow=set-1');
  });

  it('sends a missing second factor to the second step with this page as return_to', async () => {
    server.use(http.get('/api/auth/self-service/settings/browser', () => kratosError(403, 'session_aal2_required', { redirect_browser_to: '/login?aal=aal2' })));
    const router = renderSettings();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('aal')).toBe('aal2');
    expect(query.get('return_to')).toBe('/profile-settings');
  });

  it('starts a new flow silently when the flow belongs to somebody else', async () => {
    server.use(http.get('/api/auth/self-service/settings/flows', () => kratosError(403, 'security_identity_mismatch')));
    const router = renderSettings('/profile-settings?flow=set-foreign');
    expect(await screen.findByRole('region', { name: 'Profile Settings' })).toBeInTheDocument();
    expect(created).toBe(1);
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });

  it('continues the flow named in the address', async () => {
    renderSettings('/profile-settings?flow=set-known');
    expect(await screen.findByRole('region', { name: 'Profile Settings' })).toBeInTheDocument();
    expect(created).toBe(0);
  });

  it('restarts with a toast when the flow expired during submit', async () => {
    server.use(http.post('/api/auth/self-service/settings', () => kratosError(410, 'self_service_flow_expired')));
    const user = userEvent.setup();
    renderSettings();
    await user.click(within(await screen.findByRole('region', { name: 'Profile Settings' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeInTheDocument();
    await waitFor(() => expect(created).toBe(2));
  });

  it('shows what the provider told the console in hosted mode, and opens no settings flow', async () => {
    mode = 'hosted';
    server.use(
      http.get('/api/auth/sessions/whoami', () =>
        HttpResponse.json({
          id: 'session-1',
          active: true,
          identity: { id: 'person-1', traits: { email: 'grace@example.test' } },
          person: { id: 'person-1', name: 'Grace Hopper', email: 'grace@example.test', avatar: null },
          roles: ['viewer'],
        }),
      ),
    );
    renderSettings('/profile-settings?return_to=%2Fincidents');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('grace@example.test')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/incidents');
    expect(created).toBe(0);
  });
});
