import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { SelfServiceFlow } from '../api/flow-types';
import { authRoutes } from '../routes';
import { csrf, flowOf, input, kratosError, submit } from '../test-flows';

function verificationFlow(id: string): SelfServiceFlow {
  return flowOf('verification', id, [csrf(), input('code', 'email', 'email', 'E-Mail'), submit('code', 'method', 'code', 'Send code')]);
}

function passedFlow(id: string): SelfServiceFlow {
  return flowOf(
    'verification',
    id,
    [csrf(), { type: 'a', group: 'code', attributes: { node_type: 'a', id: 'continue', href: '/', title: { id: 1070009, type: 'info', text: 'Continue' } }, messages: [], meta: {} }],
    { state: 'passed_challenge' },
    [{ id: 1080002, type: 'success', text: 'Your email address is verified.' }],
  );
}

let created = 0;

const server = setupMswServer(
  http.get('/api/auth/self-service/verification/browser', () => {
    created += 1;
    return HttpResponse.json(verificationFlow(`ver-${created}`));
  }),
  http.get('/api/auth/self-service/verification/flows', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id') ?? '';
    if (id === 'ver-done') return HttpResponse.json(passedFlow(id));
    if (id === 'ver-foreign') return kratosError(403, 'security_csrf_violation');
    return kratosError(410, 'self_service_flow_expired');
  }),
  http.post('/api/auth/self-service/verification', () => HttpResponse.json(passedFlow('ver-1'))),
);

afterEach(() => {
  cleanup();
  created = 0;
});

function renderVerification(path = '/verification') {
  return renderRoutes([...authRoutes, { path: '/', element: <h1>Home</h1> }], path, { toaster: true }).router;
}

describe('VerificationPage', () => {
  it('renders the verification form with a way back home', async () => {
    renderVerification();
    expect(screen.getByRole('heading', { name: 'Verify your account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });

  it('shows the result of the emailed link, which lands on the page with its flow', async () => {
    renderVerification('/verification?flow=ver-done');
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/');
    expect(created).toBe(0);
  });

  it('submits the address and shows the answer', async () => {
    const user = userEvent.setup();
    renderVerification();
    await user.type(await screen.findByLabelText('E-Mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
  });

  it('starts over at /verification when the flow in the address expired', async () => {
    const router = renderVerification('/verification?flow=ver-old');
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(created).toBe(1);
    expect(router.state.location.pathname).toBe('/verification');
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });

  it('starts over at /verification when the flow in the address is refused', async () => {
    const router = renderVerification('/verification?flow=ver-foreign');
    expect(await screen.findByLabelText('E-Mail')).toBeInTheDocument();
    expect(created).toBe(1);
    expect(new URLSearchParams(router.state.location.search).get('flow')).toBeNull();
  });

  it('goes home when a new flow cannot be created', async () => {
    server.use(http.get('/api/auth/self-service/verification/browser', () => kratosError(400, undefined)));
    renderVerification();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
  });

  it('titles the browser tab', async () => {
    renderVerification();
    await waitFor(() => expect(document.title).toBe('Verification | Opsdeck'));
  });
});
