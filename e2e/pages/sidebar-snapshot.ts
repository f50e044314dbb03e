import { expect, type Page } from '@playwright/test';
import type { ExpectedSidebar } from '../support/expected-navigation';
import { Sidebar } from './sidebar';

/**
 * Asserts the whole sidebar. It waits for the page's requests (session, roles, feature flags) to settle first, so an
 * entry that is expected to be absent is not "absent" merely because the flags have not loaded yet.
 */
export async function expectSidebar(page: Page, expected: ExpectedSidebar): Promise<void> {
  const sidebar = new Sidebar(page);
  await sidebar.expectShown();
  await page.waitForLoadState('networkidle');
  await expect(async () => {
    expect({ areas: await sidebar.areaEntries(), settings: await sidebar.settingsEntries() }).toEqual(expected);
  }).toPass({ timeout: 10_000 });
}
