import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { SelfServiceFlow } from '../api/flow-types';
import { authRoutes } from '../routes';
import { csrf, errorText, flowOf, input, kratosError, submit, withFieldError } from '../test-flows';

function emailStep(id = 'rec-1'): SelfServiceFlow {
  return flowOf('recovery', id, [csrf(), input('code', 'email', 'email', 'E-Mail'), submit('code', 'method', 'code', 'Send code')]);
}

function codeStep(id = 'rec-1'): SelfServiceFlow {
  return flowOf(
    'recovery',
    id,
    [csrf(), input('code', 'code', 'text', 'Recovery code'), submit('code', 'method', 'code', 'Continue'), submit('code', 'email', 'ada@example.com', 'Send the code again')],
    { state: 'sent_email' },
    [{ id: 1060003, type: 'info', text: 'If the address belongs to an account, a code is on its way.' }],
  );
}

let created = 0;
const submissions: unknown[] = [];

const server = setupMswServer(
  // The settings page a recovery ends on asks how people sign in.
  authModeHandler(),
  http.get('/api/auth/self-service/recovery/browser', () => {
    created += 1;
    return HttpResponse.json(emailStep(`rec-${created}`));
  }),
  http.post('/api/auth/self-service/recovery', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    submissions.push(body);
    if (body.code === undefined) return HttpResponse.json(codeStep());
    return kratosError(422, 'browser_location_change_required', { redirect_browser_to: '/profile-settings?flow=set-1' });
  }),
  http.get('/api/auth/self-service/settings/flows', () =>
    HttpResponse.json(flowOf('settings', 'set-1', [csrf(), input('password', 'password', 'password', 'Password'), submit('password', 'method', 'password', 'Save')])),
  ),
);

afterEach(() => {
  cleanup();
  created = 0;
  submissions.length = 0;
});

function renderRecovery(path = '/recovery') {
  return renderRoutes([...authRoutes, { path: '/', element: <h1>Home</h1> }], path, { toaster: true }).router;
}

describe('RecoveryPage', () => {
  it('renders the recovery form with a way back home', async () => {
    renderRecovery();
    expect(screen.getByRole('heading', { name: 'Recover account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('E-Mail')).toHaveAttribute('type', 'email');
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Recovery | Opsdeck'));
  });

  it('asks for the emailed code after sending the address, then sets the new password on the settings page', async () => {
    const user = userEvent.setup();
    const router = renderRecovery();
    await user.type(await screen.findByLabelText('E-Mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('If the address belongs to an account, a code is on its way.')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBe('rec-1');

    await user.type(screen.getByLabelText('Recovery code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile-settings');
    expect(submissions).toEqual([
      { csrf_token: 'csrf-123', email: 'ada@example.com', method: 'code' },
      { csrf_token: 'csrf-123', code: '123456', method: 'code' },
    ]);
  });

  it('sends the address again with the resend button', async () => {
    server.use(http.get('/api/auth/self-service/recovery/browser', () => HttpResponse.json(codeStep())));
    const user = userEvent.setup();
    renderRecovery();
    await user.click(await screen.findByRole('button', { name: 'Send the code again' }));
    await waitFor(() => expect(submissions).toEqual([{ csrf_token: 'csrf-123', code: '', email: 'ada@example.com', method: 'code' }]));
  });

  it('shows a wrong code under the field', async () => {
    server.use(
      http.get('/api/auth/self-service/recovery/browser', () => HttpResponse.json(codeStep())),
      http.post('/api/auth/self-service/recovery', () =>
        HttpResponse.json(withFieldError(codeStep(), 'code', errorText('This code is wrong or expired; ask for a new one.', 4060006)), { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderRecovery();
    await user.type(await screen.findByLabelText('Recovery code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This code is wrong or expired; ask for a new one.')).toHaveClass('text-red-600');
  });

  it('restarts silently when the flow in the address is gone', async () => {
    server.use(http.get('/api/auth/self-service/recovery/flows', () => kratosError(410, 'self_service_flow_expired', { use_flow_id: 'rec-new' })));
    const router = renderRecovery('/recovery?flow=old');
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(created).toBe(1);
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });
});
