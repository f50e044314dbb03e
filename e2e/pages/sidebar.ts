import { expect, type Locator, type Page } from '@playwright/test';

/** The shell's main navigation: top-level areas, and a Settings submenu for everyone but viewers. */
export class Sidebar {
  readonly nav: Locator;
  readonly settingsToggle: Locator;
  /** The submenu's list, found whether it is expanded or not, so reading it never needs a click that could race. */
  readonly settingsList: Locator;

  constructor(page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.settingsToggle = this.nav.getByRole('button', { name: 'Settings', exact: true });
    this.settingsList = this.nav.getByRole('list', { name: 'Settings', exact: true, includeHidden: true });
  }

  async expectShown(): Promise<void> {
    await expect(this.nav).toBeVisible();
  }

  /** Labels of the Settings entries, or null when there is no Settings submenu. */
  async settingsEntries(): Promise<string[] | null> {
    if ((await this.settingsToggle.count()) === 0) return null;
    return trimmed(await this.settingsList.getByRole('link', { includeHidden: true }).allTextContents());
  }

  /** Labels of the top-level entries: every link in the nav that is not in the Settings submenu. */
  async areaEntries(): Promise<string[]> {
    const settings = new Set((await this.settingsEntries()) ?? []);
    return trimmed(await this.nav.getByRole('link').allTextContents()).filter((label) => !settings.has(label));
  }

  /** A Settings entry, visible or not: a collapsed submenu still counts as offering it. */
  settingsLink(name: string): Locator {
    return this.settingsList.getByRole('link', { name, exact: true, includeHidden: true });
  }
}

function trimmed(labels: string[]): string[] {
  return labels.map((label) => label.trim());
}
