import { expect, test } from '@playwright/test';
import { storageStateFor } from '../support/roles';

test.describe('help and documentation', () => {
  test.use({ storageState: storageStateFor('viewer') });

  test('Help leads to an API reference drawn from the running server, and to the project docs, without errors', async ({ page }) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    await page.goto('/preferences');
    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('menuitem', { name: 'API Reference' }).click();
    await expect(page).toHaveURL(/\/docs\/api$/);
    await expect(page).toHaveTitle('API Reference | Opsdeck');
    const connections = page.getByRole('region', { name: 'connections' });
    await expect(connections).toBeVisible();
    const create = connections.locator('details').filter({ hasText: '/api/canary/connections' }).filter({ hasText: 'post' }).first();
    await create.locator('summary').click();
    await expect(create).toContainText('Request body');
    await expect(create).toContainText('at most 255 characters');

    await page.getByRole('searchbox', { name: 'Search operations' }).fill('whoami');
    await expect(page.locator('details')).toHaveCount(1);

    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('menuitem', { name: 'Docs' }).click();
    await page.getByRole('link', { name: 'Architecture' }).click();
    await expect(page.getByRole('heading', { name: 'Architecture', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'security.md' }).first().click();
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
