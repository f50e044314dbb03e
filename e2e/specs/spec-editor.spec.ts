import { expect, test } from '@playwright/test';
import { storageStateFor } from '../support/roles';

test.describe('YAML spec editor', () => {
  test.use({ storageState: storageStateFor('admin') });

  test('underlines what the canary spec refuses as it is typed, and Tab leaves the editor', async ({ page }) => {
    await page.goto('/settings/canaries');
    await page.getByRole('button', { name: 'Add Health Check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Health Check' });
    await dialog.getByRole('radio', { name: 'YAML' }).click();

    const spec = dialog.getByRole('textbox', { name: 'Spec' });
    await spec.fill('http:\n  - name: shop\n    url: https://shop.example.com\nhtp: []\n');
    await expect(dialog.locator('.cm-lintRange-error')).toHaveText('htp');

    await spec.fill('http:\n  - name: shop\n    url: https://shop.example.com\n');
    await expect(dialog.locator('.cm-lintRange-error')).toHaveCount(0);

    await spec.press('Tab');
    await expect(spec).not.toBeFocused();
    await expect(spec).toContainText('name: shop');
  });
});
