import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';
import { THEME_STORAGE_KEY } from '@/lib/theme/theme';

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('/api/db/properties', () => HttpResponse.json([])),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
);

afterEach(() => {
  document.documentElement.classList.remove('dark');
  document.documentElement.style.colorScheme = '';
});

async function openThemeChoices(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'User menu' }));
  const menu = await screen.findByRole('menu');
  return within(within(menu).getByRole('group', { name: 'Theme' }));
}

describe('the theme choice in the user menu', () => {
  it('offers Light, Dark and System with the current one checked, System until the person picks', async () => {
    const user = userEvent.setup();
    renderApp('/preferences');
    const choices = await openThemeChoices(user);
    const items = choices.getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual(['Light', 'Dark', 'System']);
    expect(choices.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
    expect(choices.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false');
  });

  it('switches the page to dark by pointer, keeps the choice, and leaves the menu open to show it', async () => {
    const user = userEvent.setup();
    renderApp('/preferences');
    const choices = await openThemeChoices(user);
    await user.click(choices.getByRole('menuitemradio', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(choices.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  });

  it('is usable from the keyboard: arrows reach a choice and Enter picks it', async () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    const user = userEvent.setup();
    renderApp('/preferences');
    const trigger = await screen.findByRole('button', { name: 'User menu' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    const light = within(menu).getByRole('menuitemradio', { name: 'Light' });
    for (let step = 0; step < 10 && document.activeElement !== light; step += 1) await user.keyboard('{ArrowDown}');
    expect(light).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(document.documentElement).not.toHaveClass('dark');
    expect(document.documentElement.style.colorScheme).toBe('light');
  });
});
