import { expect, test } from '@playwright/test';
import { storageStateFor } from '../support/roles';

/** Keyboard use the accessibility audit (#36) asked for, in the running app. */
test.describe('keyboard', () => {
  test.use({ storageState: storageStateFor('admin'), viewport: { width: 1440, height: 900 } });

  test("a table is one Tab stop whose rows the arrows walk, and Escape on a row's dialog gives the focus back to the row", async ({ page }) => {
    await page.goto('/settings/agents');
    const table = page.getByRole('table', { name: 'Agents' });
    const rows = table.locator('tbody tr[data-row-id]');
    await expect(rows.first()).toBeVisible();
    await expect(table.locator('tbody tr[tabindex="0"]')).toHaveCount(1);
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press('Space');
    const editor = page.getByRole('dialog', { name: 'Edit Agent' });
    await expect(editor).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(editor).toBeHidden();
    await expect(rows.nth(1)).toBeFocused();
  });

  test("choosing a page in the palette puts the focus on the new page's heading", async ({ page }) => {
    await page.goto('/health');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette.getByRole('combobox')).toBeFocused();
    await page.keyboard.type('Feature Flags');
    await expect(palette.getByRole('option', { name: /Feature Flags/ }).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/settings\/feature-flags$/);
    await expect(page.getByRole('heading', { level: 1, name: /Feature Flags/ })).toBeFocused();
  });
});
