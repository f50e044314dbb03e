import { expect, test } from '@playwright/test';
import { LoginPage } from '../pages/login-page';

const PROTECTED = '/settings/feature-flags';

function returnToOf(url: string): string | null {
  return new URL(url).searchParams.get('return_to');
}

test.describe('an unauthenticated request', () => {
  test('opening a protected page without a session goes to sign-in and back after signing in', async ({ page }) => {
    await page.goto(PROTECTED);
    await expect(page).toHaveURL(/\/login\?/);
    expect(returnToOf(page.url())).toBe(PROTECTED);

    const login = new LoginPage(page);
    await login.expectShown();
    await login.signInAs('admin');
    await expect(page).toHaveURL(PROTECTED);
  });

  test('a session that ends mid-visit sends the next API call to sign-in with a way back', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs('editor');
    await login.expectSignedIn();
    await page.goto(`${PROTECTED}?probe=1`);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.waitForLoadState('networkidle');

    await page.context().clearCookies();
    // Reloading the list goes through the app's API client, not a page load, so this is the client's 401 handling. The
    // page's own session check (a component mounting more than 5 s after the last one asks again) can meet the ended
    // session first on a slow machine and send the user away before the click lands: either call must do it.
    const signInShown = page.waitForURL(/\/login\?/);
    const refreshed = page
      .getByRole('main')
      .getByRole('button', { name: 'Refresh', exact: true })
      .click()
      .catch(() => undefined);
    await Promise.race([signInShown, refreshed]);
    await signInShown;
    expect(returnToOf(page.url())).toBe(`${PROTECTED}?probe=1`);
    await login.expectShown();
    await login.signInAs('editor');
    await expect(page).toHaveURL(`${PROTECTED}?probe=1`);
  });
});
