import { expect, test, type APIRequestContext } from '@playwright/test';
import { FeatureFlagsPage } from '../pages/feature-flags-page';
import { Sidebar } from '../pages/sidebar';
import { expectSidebar } from '../pages/sidebar-snapshot';
import { EXPECTED_SIDEBAR } from '../support/expected-navigation';
import { storageStateFor } from '../support/roles';

const DISABLE_FEATURE_FLAGS = 'settings.feature_flags.disable';

/** Removes a flag straight through the data API, so a failed test never leaves its flag behind for the next one. */
async function deleteFlag(request: APIRequestContext, name: string): Promise<void> {
  const response = await request.delete(`/api/db/properties?name=eq.${encodeURIComponent(name)}`);
  expect(response.ok(), `DELETE ${name}: ${response.status()} ${await response.text()}`).toBe(true);
}

test.describe('feature flags', () => {
  test.use({ storageState: storageStateFor('admin') });

  const created: string[] = [];
  test.afterEach(async ({ request }) => {
    for (const name of created.splice(0)) await deleteFlag(request, name);
  });

  test('an admin adds, edits and removes a flag', async ({ page }) => {
    const flags = new FeatureFlagsPage(page);
    const name = `e2e.flag_${Date.now()}`;
    await flags.goto();

    created.push(name);
    await flags.add({ name, value: 'first', description: 'Added by the end-to-end tests' });
    await expect(flags.row(name)).toContainText('first');
    await expect(flags.row(name)).toContainText('Added by the end-to-end tests');

    await expect(flags.row(name)).toContainText('UI');

    await flags.changeValue(name, 'second');
    await expect(flags.row(name)).toContainText('second');

    await flags.remove(name);
    created.splice(created.indexOf(name), 1);
    await expect(flags.row(name)).toHaveCount(0);
  });

  test('{feature}.disable switches the sidebar entry off and on again', async ({ page, request }) => {
    const flags = new FeatureFlagsPage(page);
    const sidebar = new Sidebar(page);
    await flags.goto();
    await expectSidebar(page, EXPECTED_SIDEBAR.admin);

    created.push(DISABLE_FEATURE_FLAGS);
    await flags.add({ name: DISABLE_FEATURE_FLAGS, value: 'true' });
    await expect(sidebar.settingsLink('Feature Flags')).toHaveCount(0);
    await expectSidebar(page, { ...EXPECTED_SIDEBAR.admin, settings: withoutEntry(EXPECTED_SIDEBAR.admin.settings, 'Feature Flags') });

    // The page is closed by its URL too, not only hidden from the sidebar.
    await page.goto('/settings/feature-flags');
    await expect(page.getByText('The settings.feature_flags area is switched off.')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Feature flags' })).toHaveCount(0);

    await deleteFlag(request, DISABLE_FEATURE_FLAGS);
    created.splice(created.indexOf(DISABLE_FEATURE_FLAGS), 1);
    await page.reload();
    await expectSidebar(page, EXPECTED_SIDEBAR.admin);
  });

  test('the Source column says where each flag comes from', async ({ page }) => {
    const flags = new FeatureFlagsPage(page);
    await flags.goto();
    const sources = await flags.table.getByRole('row').evaluateAll((rows) => {
      const header = rows[0]?.querySelectorAll('th') ?? [];
      const index = Array.from(header).findIndex((cell) => cell.textContent === 'Source');
      return rows.slice(1).map((row) => row.querySelectorAll('td')[index]?.textContent ?? '');
    });
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => source === '')).toEqual([]);
    await expect(flags.row('incidents.disable')).toContainText('UI');
  });
});

/** The Settings submenu without one entry; a submenu left empty is not shown at all. */
function withoutEntry(entries: string[] | null, label: string): string[] | null {
  const rest = (entries ?? []).filter((entry) => entry !== label);
  return rest.length === 0 ? null : rest;
}

test.describe('feature flags for a viewer', () => {
  test.use({ storageState: storageStateFor('viewer') });

  test('a viewer reads the flags but is offered no way to change them', async ({ page }) => {
    const flags = new FeatureFlagsPage(page);
    await flags.goto();
    await expect(flags.row('incidents.disable')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Feature Flag' })).toHaveCount(0);
    await flags.row('incidents.disable').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
