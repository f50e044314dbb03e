import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';
import { SIDEBAR_STORAGE_KEY } from './use-sidebar-collapsed';
import { settingsNavigation } from '../navigation';

interface Property {
  name: string;
  value: string;
}

let roles: string[] = ['admin'];
let properties: Property[] = [];

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('/api/db/properties', () => HttpResponse.json(properties)),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
  http.get('/api/auth/self-service/login/browser', () =>
    HttpResponse.json({ id: 'flow-1', ui: { action: '/api/auth/self-service/login?flow=flow-1', method: 'POST', nodes: [] } }),
  ),
);

beforeEach(() => {
  roles = ['admin'];
  properties = [];
  window.localStorage.clear();
  window.innerWidth = 1280;
});

function renderShell(path = '/somewhere') {
  return renderApp(path);
}

async function findMainNav() {
  return screen.findByRole('navigation', { name: 'Main' });
}

describe('Sidebar', () => {
  it('shows an admin the Settings submenu with Feature Flags', async () => {
    const user = userEvent.setup();
    renderShell();
    const nav = await findMainNav();
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(within(nav).getByRole('link', { name: 'Feature Flags' })).toHaveAttribute('href', '/settings/feature-flags');
  });

  it('opens the Settings submenu by itself on a settings page', async () => {
    renderShell('/settings/unknown-page');
    const nav = await findMainNav();
    expect(within(nav).getByRole('button', { name: 'Settings' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('link', { name: 'Feature Flags' })).toBeVisible();
  });

  it('lists Users among the settings of an admin, and hides it when people sign in through an external provider', async () => {
    const user = userEvent.setup();
    const { unmount } = renderShell();
    let nav = await findMainNav();
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(await within(nav).findByRole('link', { name: 'Users' })).toHaveAttribute('href', '/settings/users');
    unmount();

    server.use(authModeHandler(() => 'hosted'));
    renderShell();
    nav = await findMainNav();
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(within(nav).getByRole('link', { name: 'Teams' })).toHaveAttribute('href', '/settings/teams');
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument());
  });

  it('shows a viewer no Settings submenu', async () => {
    roles = ['viewer'];
    renderShell();
    const nav = await findMainNav();
    expect(within(nav).queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('hides Feature Flags when settings.feature_flags.disable is true and keeps the other settings', async () => {
    const user = userEvent.setup();
    properties = [{ name: 'settings.feature_flags.disable', value: 'true' }];
    renderShell();
    const nav = await findMainNav();
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(within(nav).queryByRole('link', { name: 'Feature Flags' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Health Checks' })).toHaveAttribute('href', '/settings/canaries');
  });

  it('hides the whole Settings submenu when every settings entry is disabled', async () => {
    properties = settingsNavigation.map(({ feature }) => ({
      name: `${feature}.disable`,
      value: 'true',
    }));
    renderShell();
    const nav = await findMainNav();
    expect(within(nav).queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('links the product logo to the home page', async () => {
    renderShell();
    await findMainNav();
    expect(screen.getByRole('link', { name: 'Opsdeck home' })).toHaveAttribute('href', '/');
  });

  it('remembers that it was collapsed', async () => {
    const user = userEvent.setup();
    const first = renderShell();
    await findMainNav();
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(window.localStorage.getItem(SIDEBAR_STORAGE_KEY)).toBe('true');
    first.unmount();
    first.unbind();

    renderShell();
    await findMainNav();
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });

  it('is a drawer on a narrow screen, opened by the menu button and closed by a click outside it', async () => {
    window.innerWidth = 390;
    const user = userEvent.setup();
    renderShell();
    await findMainNav();
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    const drawer = document.getElementById(menuButton.getAttribute('aria-controls') ?? '');
    expect(drawer).toHaveAttribute('data-drawer', 'closed');
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    await user.click(menuButton);
    expect(drawer).toHaveAttribute('data-drawer', 'open');
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
    expect(screen.queryByRole('button', { name: 'Collapse sidebar' })).not.toBeInTheDocument();

    await user.click(screen.getByTestId('drawer-backdrop'));
    expect(drawer).toHaveAttribute('data-drawer', 'closed');
    expect(menuButton).toHaveFocus();
  });

  it('closes the drawer on Escape and gives focus back to the menu button', async () => {
    window.innerWidth = 800;
    const user = userEvent.setup();
    renderShell();
    await findMainNav();
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    await user.click(menuButton);
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    expect(menuButton).toHaveFocus();
  });

  it('closes the drawer when one of its links is followed', async () => {
    window.innerWidth = 390;
    const user = userEvent.setup();
    const { router } = renderShell();
    const nav = await findMainNav();
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    await user.click(menuButton);
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    await user.click(within(nav).getByRole('link', { name: 'Feature Flags' }));
    expect(router.state.location.pathname).toBe('/settings/feature-flags');
    // The router renders a navigation in a transition, which waits for the page's lazily loaded code.
    await waitFor(() => expect(menuButton).toHaveAttribute('aria-expanded', 'false'));
  });

  it('becomes a closed drawer without sliding across the page when the window narrows, and slides once opened', async () => {
    const user = userEvent.setup();
    renderShell();
    const nav = await findMainNav();
    const aside = nav.closest('aside');
    act(() => {
      window.innerWidth = 390;
      window.dispatchEvent(new Event('resize'));
    });
    expect(aside).toHaveAttribute('data-drawer', 'closed');
    expect(aside?.className).not.toContain('transition-[translate');
    await waitFor(() => expect(aside?.className).toContain('transition-[translate'));
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(aside).toHaveAttribute('data-drawer', 'open');
  });

  it('shows no menu button beside the sidebar on a wide screen', async () => {
    renderShell();
    await findMainNav();
    expect(screen.queryByRole('button', { name: 'Open navigation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
  });

  it('stays open on a click outside it on a wide screen', async () => {
    const user = userEvent.setup();
    renderShell();
    await findMainNav();
    await user.click(screen.getByRole('heading', { name: 'Page not found' }));
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
  });
});

describe('Application shell', () => {
  it('shows the loading skeleton until the session and feature flags have loaded', async () => {
    renderShell();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await findMainNav();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('greets the user and shows both versions in the user menu', async () => {
    const user = userEvent.setup();
    renderShell();
    await findMainNav();
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Hi Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/profile-settings');
    expect(await within(menu).findByText('Frontend: 1.0.748 | Backend: 2.3.4')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('opens the kubeconfig dialog from the user menu', async () => {
    const user = userEvent.setup();
    renderShell();
    await findMainNav();
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Download kubeconfig' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download kubeconfig' });
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeInTheDocument();
  });

  it('sends a signed-out visitor to sign in with the page to come back to', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json({ code: 'OD401', message: 'Authentication required' }, { status: 401 })));
    const { router } = renderShell('/settings/feature-flags?tab=all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('return_to')).toBe('/settings/feature-flags?tab=all');
  });

  it('asks for a second factor when the session check answers 403', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json({ code: 'OD403', message: 'aal2 required' }, { status: 403 })));
    const { router } = renderShell('/preferences');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('aal')).toBe('aal2');
    expect(params.get('return_to')).toBe('/preferences');
  });
});
