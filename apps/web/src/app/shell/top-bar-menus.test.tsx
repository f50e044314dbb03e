import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp as renderAppWithRouter } from '@/test/render-app';

const openApi = {
  openapi: '3.0.3',
  info: { title: 'Opsdeck API', version: '9.9.9' },
  paths: { '/api/version': { get: { tags: ['platform'], summary: 'The running version', responses: { 200: { description: 'Default Response' } } } } },
};

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('/api/db/properties', () => HttpResponse.json([])),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
  http.get('/api/openapi.json', () => HttpResponse.json(openApi)),
);


function renderApp(path: string) {
  return renderAppWithRouter(path).router;
}

describe('top bar menus', () => {
  it('links Preferences from the user menu, so it is reachable without typing its URL', async () => {
    const user = userEvent.setup();
    const router = renderApp('/docs');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: 'Preferences' }));
    expect(await screen.findByRole('heading', { name: 'Preferences' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/preferences');
  });

  it('opens the documentation inside the app from Help → Docs, never the raw OpenAPI JSON', async () => {
    const user = userEvent.setup();
    const router = renderApp('/preferences');
    await user.click(await screen.findByRole('button', { name: 'Help' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: /openapi/i })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Docs' }));
    expect(await screen.findByRole('heading', { name: 'Documentation' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/docs');
    for (const title of ['Architecture', 'Security', 'Overview']) expect(screen.getByRole('link', { name: title })).toBeInTheDocument();
  });

  it('opens the API reference from Help → API Reference, rendered from the server document', async () => {
    const user = userEvent.setup();
    const router = renderApp('/preferences');
    await user.click(await screen.findByRole('button', { name: 'Help' }));
    await user.click(await screen.findByRole('menuitem', { name: 'API Reference' }));
    expect(await screen.findByText('The running version')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/docs/api');
  });
});
