import { expect, test } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const BAD_SESSION = 'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';

test.describe('error screens', () => {
  test.use({ storageState: storageStateFor('admin') });

  test('error_code BAD_SESSION explains the bad session and offers a way back', async ({ page }) => {
    await page.goto('/error?error_code=BAD_SESSION');
    await expect(page.getByText(BAD_SESSION, { exact: true })).toBeVisible();
    await expect(page.getByText('Unknown error', { exact: true })).toHaveCount(0);
    const back = page.getByRole('link', { name: 'Go back' });
    await expect(back).toBeVisible();
    await back.click();
    await expect(page).not.toHaveURL(/\/error/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test('any other error_code shows Unknown error and offers a way back', async ({ page }) => {
    await page.goto('/error?error_code=X');
    await expect(page.getByText('Unknown error', { exact: true })).toBeVisible();
    await expect(page.getByText(BAD_SESSION, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go back' })).toBeVisible();
  });
});

test.describe('a page the role may not read', () => {
  test.use({ storageState: storageStateFor('responder') });

  test('shows the Unauthorized panel instead of the page', async ({ page }) => {
    // Responders may read everything except rbac, identities and connections (spec 000 §6).
    await page.goto('/settings/connections');
    const panel = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Unauthorized' }) });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('You do not have permission to access this page', { exact: true })).toBeVisible();
  });
});
