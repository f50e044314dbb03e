import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';
import { BAD_SESSION_MESSAGE } from './error-screen';

const server = setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('/api/db/properties', () => HttpResponse.json([])),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
);

function renderAt(path: string) {
  return renderApp(path);
}

describe('error screen', () => {
  it('explains a bad session when error_code is BAD_SESSION', async () => {
    renderAt('/error?error_code=BAD_SESSION');
    expect(await screen.findByText(BAD_SESSION_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
    expect(await screen.findByRole('button', { name: 'User menu' })).toBeInTheDocument();
  });

  it('says Unknown error for any other error code', async () => {
    renderAt('/error?error_code=SOMETHING_ELSE');
    expect(await screen.findByText('Unknown error')).toBeInTheDocument();
  });
});

describe('flow error screen', () => {
  it('shows the flow error payload with a way back', async () => {
    server.use(
      http.get('/api/auth/self-service/errors', ({ request }) =>
        HttpResponse.json({ id: new URL(request.url).searchParams.get('id'), error: { code: 500, message: 'The identity store is unreachable' } }),
      ),
    );
    renderAt('/error/err-42');
    expect(await screen.findByRole('heading', { name: 'An error occurred' })).toBeInTheDocument();
    expect(screen.getByText(/The identity store is unreachable/)).toBeInTheDocument();
    expect(screen.getByText(/err-42/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/');
  });

  it.each([403, 404, 410])('goes home when the flow error answers %i', async (status) => {
    server.use(http.get('/api/auth/self-service/errors', () => HttpResponse.json({ error: { code: status, message: 'gone' } }, { status })));
    const { router } = renderAt('/error/err-1');
    await screen.findByRole('navigation', { name: 'Main' });
    expect(router.state.location.pathname).not.toMatch(/^\/error/);
  });

  it('raises other failures to the error boundary', async () => {
    server.use(http.get('/api/auth/self-service/errors', () => HttpResponse.json({ error: { code: 500, message: 'Database down' } }, { status: 500 })));
    renderAt('/error/err-1');
    expect(await screen.findByRole('heading', { name: 'Sorry.. there was an error' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

describe('not found page', () => {
  it('renders inside the shell for an unknown address', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
