import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';

let roles: readonly string[] = ['viewer'];

setupMswServer(
  whoamiHandler(() => roles),
  http.get('/api/db/properties', () => HttpResponse.json([])),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
  http.get('/api/search', () => HttpResponse.json({ items: [] })),
);

async function openPalette(role: string) {
  roles = [role];
  const user = userEvent.setup();
  renderApp('/preferences');
  await user.click(await screen.findByRole('button', { name: /^Search…/ }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Command palette' }) };
}

function optionNames(dialog: HTMLElement): string[] {
  return within(dialog)
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

describe('the command palette in the shell', () => {
  it('offers a viewer the pages of the sidebar but no settings page and no action that writes', async () => {
    const { dialog } = await openPalette('viewer');
    const names = optionNames(dialog);
    expect(names.some((name) => name.startsWith('Incidents'))).toBe(true);
    expect(names.some((name) => name.startsWith('Users'))).toBe(false);
    expect(within(dialog).queryByText('Settings')).not.toBeInTheDocument();
    expect(names.some((name) => name.startsWith('Create incident'))).toBe(false);
    expect(names.some((name) => name.startsWith('Run a playbook'))).toBe(false);
  });

  it('offers a responder Create incident and the settings they may read, but not Users or Run a playbook', async () => {
    const { dialog } = await openPalette('responder');
    const names = optionNames(dialog);
    expect(names.some((name) => name.startsWith('Create incident'))).toBe(true);
    expect(names.some((name) => name.startsWith('Health Checks'))).toBe(true);
    expect(names.some((name) => name.startsWith('Users'))).toBe(false);
    expect(names.some((name) => name.startsWith('Run a playbook'))).toBe(false);
  });

  it('offers an admin every settings page and both actions, and Create incident opens the create dialog', async () => {
    const { user, dialog } = await openPalette('admin');
    const names = optionNames(dialog);
    for (const expected of ['Users', 'Connections', 'Run a playbook', 'Create incident']) {
      expect(names.some((name) => name.startsWith(expected)), expected).toBe(true);
    }
    await user.keyboard('create inc');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Create New Incident' })).toBeInTheDocument();
  });
});
