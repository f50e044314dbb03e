import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { setAppNavigator } from '@/lib/app-navigator';
import { useLogout } from './use-logout';

const logoutHeaders: string[] = [];
const server = setupMswServer(
  http.get('*/api/auth/self-service/logout/browser', ({ request }) => {
    logoutHeaders.push(request.headers.get('x-requested-with') ?? '');
    return HttpResponse.json({ logout_token: 'token-1', logout_url: '/api/auth/self-service/logout?token=token-1' });
  }),
  http.get('*/api/auth/self-service/logout', () => new HttpResponse(null, { status: 204 })),
);

afterEach(() => {
  logoutHeaders.length = 0;
  vi.unstubAllGlobals();
});

function SignOutButton() {
  const { signOut } = useLogout();
  return (
    <button type="button" onClick={() => void signOut()}>
      Sign out
    </button>
  );
}

function stubLocation(): { replace: ReturnType<typeof vi.fn>; assign: ReturnType<typeof vi.fn> } {
  const replace = vi.fn();
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, replace, assign });
  return { replace, assign };
}

describe('useLogout', () => {
  it('forgets every cached answer and replaces the page with sign-in, so Back cannot show the previous user', async () => {
    const client = new QueryClient();
    client.setQueryData(['session', 'whoami'], { roles: ['admin'] });
    client.setQueryData(['incidents', 'list'], [{ id: 'INC-1', title: 'Checkout is down' }]);
    const restore = setAppNavigator({ currentPath: () => '/settings/people', navigate: () => undefined });
    const location = stubLocation();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <SignOutButton />
      </QueryClientProvider>,
    );

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(location.replace).toHaveBeenCalledTimes(1));
    restore();

    expect(client.getQueryCache().getAll()).toEqual([]);
    expect(location.replace).toHaveBeenCalledWith('/login?return_to=%2Fsettings%2Fpeople');
    expect(location.assign).not.toHaveBeenCalled();
    expect(logoutHeaders).toEqual(['XMLHttpRequest']);
  });

  it('still clears the cache and leaves for sign-in when ending the session fails', async () => {
    server.use(http.get('*/api/auth/self-service/logout/browser', () => HttpResponse.json({ error: { code: 500 } }, { status: 500 })));
    const client = new QueryClient();
    client.setQueryData(['people'], [{ id: 'p1' }]);
    const location = stubLocation();
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={client}>
        <SignOutButton />
      </QueryClientProvider>,
    );

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(location.replace).toHaveBeenCalledTimes(1));

    expect(client.getQueryCache().getAll()).toEqual([]);
  });
});
