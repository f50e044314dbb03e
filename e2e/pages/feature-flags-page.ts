import { expect, type Locator, type Page } from '@playwright/test';

export interface FlagFields {
  name: string;
  value: string;
  description?: string;
}

/** /settings/feature-flags: the flag table and its add, edit and delete dialogs. */
export class FeatureFlagsPage {
  readonly table: Locator;

  constructor(private readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Feature flags' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/settings/feature-flags');
    await expect(this.page.getByRole('heading', { name: 'Feature Flags' })).toBeVisible();
    await expect(this.table).toBeVisible();
    await expect(this.table).not.toHaveAttribute('aria-busy', 'true');
  }

  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  private toast(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }

  async add(flag: FlagFields): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Feature Flag' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add Feature Flag' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Name').fill(flag.name);
    await dialog.getByLabel('Value').fill(flag.value);
    if (flag.description !== undefined) await dialog.getByLabel('Description').fill(flag.description);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(this.toast('Feature flag added successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  async changeValue(name: string, value: string): Promise<void> {
    await this.row(name).click();
    const dialog = this.page.getByRole('dialog', { name: 'Edit Feature Flag' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await dialog.getByLabel('Value').fill(value);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await expect(this.toast('Feature flag updated successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  async remove(name: string): Promise<void> {
    await this.row(name).click();
    const dialog = this.page.getByRole('dialog', { name: 'Edit Feature Flag' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const confirm = this.page.getByRole('dialog', { name: 'Delete Feature Flag' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(this.toast('Feature flag removed successfully')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(dialog).toBeHidden();
  }
}
