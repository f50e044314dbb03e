import { expect, test } from '@playwright/test';
import { LoginPage } from '../pages/login-page';
import { expectSidebar } from '../pages/sidebar-snapshot';
import { EXPECTED_SIDEBAR } from '../support/expected-navigation';
import { ROLES } from '../support/roles';

test.describe('signing in', () => {
  for (const role of ROLES) {
    test(`${role} signs in and sees exactly the sidebar the role and the flags allow`, async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signInAs(role);
      await login.expectSignedIn();
      await expectSidebar(page, EXPECTED_SIDEBAR[role]);
    });
  }

  test('a wrong password keeps the user on the sign-in page', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn('admin@opsdeck.local', 'not-the-password');
    await login.expectShown();
    await expect(page).toHaveURL(/\/login(\?|$)/);
  });
});
