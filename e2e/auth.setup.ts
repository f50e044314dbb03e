import { test as setup } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { ROLES, storageStateFor } from './support/roles';

// Each role signs in once through the real /login page; the specs reuse the saved cookies.
for (const role of ROLES) {
  setup(`sign in as ${role}`, async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signInAs(role);
    await login.expectSignedIn();
    await page.context().storageState({ path: storageStateFor(role) });
  });
}
