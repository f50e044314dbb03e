import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Toaster } from 'sonner';
import { setupMswServer } from '@/test/msw';
import { setAppNavigator } from '@/lib/app-navigator';
import { createGuardedFetch, guardedFetch } from './guarded-fetch';
import { requestJson } from './http';
import { ApiError } from './api-error';

const server = setupMswServer(
  http.get('/api/db/secret', () => HttpResponse.json({ code: 'OD401', message: 'Authentication required', details: null, hint: null }, { status: 401 })),
  http.get('/api/db/broken', () =>
    HttpResponse.json({ code: 'PGRST205', message: 'Could not find the table public.broken', details: null, hint: null }, { status: 404 }),
  ),
  http.get('/api/db/quiet', () => HttpResponse.json({ code: 'PGRST205', message: 'The quiet table is missing', details: null, hint: null }, { status: 404 })),
  http.get('/api/db/ok', () => HttpResponse.json([{ id: 1 }])),
);

afterEach(() => {
  cleanup();
  server.resetHandlers();
});

function recordNavigation(currentPath: string) {
  const visited: string[] = [];
  const restore = setAppNavigator({ currentPath: () => currentPath, navigate: (to) => visited.push(to) });
  return { visited, restore };
}

describe('guardedFetch', () => {
  it('sends the user to sign in with the current path and query when an API call answers 401', async () => {
    const { visited, restore } = recordNavigation('/settings/feature-flags?sortBy=name');
    const response = await guardedFetch('/api/db/secret');
    restore();
    expect(response.status).toBe(401);
    expect(visited).toEqual(['/login?return_to=%2Fsettings%2Ffeature-flags%3FsortBy%3Dname']);
  });

  it('does not redirect again when the user is already on the sign-in page', async () => {
    const { visited, restore } = recordNavigation('/login?return_to=%2F');
    await guardedFetch('/api/db/secret');
    restore();
    expect(visited).toEqual([]);
  });

  it('shows the server message in an error toast when a call fails', async () => {
    render(<Toaster />);
    const response = await guardedFetch('/api/db/broken');
    expect(response.status).toBe(404);
    expect(await screen.findByText('Could not find the table public.broken')).toBeInTheDocument();
  });

  it('stays quiet when the caller reports failures itself', async () => {
    render(<Toaster />);
    const response = await createGuardedFetch({ silent: true })('/api/db/quiet');
    expect(response.status).toBe(404);
    // Toasts show in the order they were raised: once a later failure's toast is up, the quiet one would be too.
    await guardedFetch('/api/db/broken');
    expect(await screen.findByText('Could not find the table public.broken')).toBeInTheDocument();
    expect(screen.queryByText('The quiet table is missing')).not.toBeInTheDocument();
  });

  it('marks every call with the CSRF header the server asks of cookie-authenticated writes, keeping the caller headers', async () => {
    const seen: Array<{ marker: string | null; prefer: string | null }> = [];
    server.use(
      http.delete('/api/db/comments', ({ request }) => {
        seen.push({ marker: request.headers.get('x-requested-with'), prefer: request.headers.get('prefer') });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await guardedFetch('/api/db/comments', { method: 'DELETE', headers: { Prefer: 'return=minimal' } });
    await guardedFetch(new Request(new URL('/api/db/comments', window.location.origin), { method: 'DELETE', headers: { Prefer: 'count=exact' } }));
    expect(seen).toEqual([
      { marker: 'XMLHttpRequest', prefer: 'return=minimal' },
      { marker: 'XMLHttpRequest', prefer: 'count=exact' },
    ]);
  });

  it('passes successful responses through untouched', async () => {
    const response = await guardedFetch('/api/db/ok');
    expect(await response.json()).toEqual([{ id: 1 }]);
  });
});

describe('requestJson', () => {
  it('throws an ApiError carrying the status and the server message', async () => {
    const failure = requestJson('/api/db/broken', { silent: true });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, message: 'Could not find the table public.broken', code: 'PGRST205' });
  });
});
