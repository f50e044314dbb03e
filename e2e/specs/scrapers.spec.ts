import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';
import { serverDataFolder } from '../support/server-data';

/** A run and its ingest on a 2-core machine shared with the browser. */
const RUN_TIMEOUT_MS = 60_000;

interface Service {
  name: string;
  replicas: number;
  image: string;
}

function writeServices(folder: string, services: readonly Service[]): void {
  const documents = services.map((service) => `name: ${service.name}\nkind: Service\nreplicas: ${service.replicas}\nimage: ${service.image}\n`);
  writeFileSync(path.join(folder, 'services.yaml'), documents.join('---\n'));
}

function specFor(folder: string): string {
  return ['schedule: "@every 1h"', 'file:', '  - type: E2E::Service', '    id: $.name', '    name: $.name', '    format: yaml', '    icon: file', '    paths:', `      - ${folder}/*.yaml`, ''].join('\n');
}

function jobRows(page: Page): Locator {
  return page.getByRole('table', { name: 'Job history' }).getByRole('row');
}

/** Waits on the scraper's Job History tab until the newest run says what it did, and succeeded. */
async function expectNewestRun(page: Page, expectedSummary: RegExp): Promise<void> {
  await page.getByRole('tab', { name: 'Job History' }).click();
  const newest = jobRows(page).nth(1);
  await expect(newest).toContainText(expectedSummary, { timeout: RUN_TIMEOUT_MS });
  await expect(newest).toContainText('SUCCESS');
}

async function runNow(page: Page, scraperName: string, expectedSummary: RegExp): Promise<void> {
  await page.getByRole('tab', { name: 'Spec' }).click();
  await page.getByRole('button', { name: 'Run Now' }).click();
  await expect(page.getByText(`${scraperName} run started`, { exact: true })).toBeVisible();
  await expectNewestRun(page, expectedSummary);
}

test.describe('scrapers', () => {
  test.use({ storageState: storageStateFor('editor') });

  test('a file scraper made in the UI brings its files into the catalog, and a changed file shows as a diff and a second run', async ({ page }) => {
    test.setTimeout(240_000);
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000).toString(36)}`;
    const scraperName = `e2e-files-${stamp}`;
    const orders = `e2e-orders-${stamp}`;
    const billing = `e2e-billing-${stamp}`;
    const folder = serverDataFolder('scrape', `e2e-${stamp}`);
    writeServices(folder, [
      { name: orders, replicas: 1, image: 'shop/orders:1.4.0' },
      { name: billing, replicas: 2, image: 'shop/billing:2.0.1' },
    ]);

    // Create it: the example spec is replaced by one for the prepared folder, and the editor finds nothing to refuse.
    await page.goto('/catalog/scrapers');
    await expect(page.getByRole('heading', { name: 'Scrapers' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Scraper' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Scraper' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(scraperName);
    const spec = dialog.getByRole('textbox', { name: 'Spec' });
    await expect(spec).toContainText('format: yaml');
    await spec.fill(specFor(folder));
    await expect(dialog.locator('.cm-lintRange-error')).toHaveCount(0);
    await expect(dialog.getByRole('list', { name: 'Missing required fields' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${scraperName} created successfully`, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/catalog\/scrapers\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: scraperName })).toBeVisible();
    const scraperUrl = page.url();

    // A new scraper runs at once; Run Now runs it again and finds nothing new.
    await expectNewestRun(page, /2 added/);
    await runNow(page, scraperName, /2 unchanged/);

    // Its items are in the catalog.
    await page.goto(`/catalog?search=${encodeURIComponent(orders)}`);
    const items = page.getByRole('table', { name: 'Catalog items' });
    await expect(items.getByRole('row').filter({ hasText: orders }).first()).toBeVisible();
    await expect(items.getByRole('row').filter({ hasText: orders }).first()).toContainText('E2E::Service');

    // One file changes; the second run updates one item and leaves the other as it was.
    writeServices(folder, [
      { name: orders, replicas: 3, image: 'shop/orders:1.5.0' },
      { name: billing, replicas: 2, image: 'shop/billing:2.0.1' },
    ]);
    await page.goto(scraperUrl);
    await runNow(page, scraperName, /1 updated/);
    expect(await jobRows(page).filter({ hasText: 'SUCCESS' }).count()).toBeGreaterThanOrEqual(3);
    await jobRows(page)
      .nth(1)
      .getByRole('button', { name: /^Show details of the run/ })
      .click();
    await expect(page.getByRole('table', { name: 'Items per type' }).getByRole('row', { name: 'E2E::Service 0 1 1 0' })).toBeVisible();

    // The item names its scraper, and its Changes tab holds the change with its diff.
    await page.goto(`/catalog?search=${encodeURIComponent(orders)}`);
    await items.getByRole('row').filter({ hasText: orders }).first().click();
    await expect(page.getByRole('heading', { name: orders })).toBeVisible();
    await expect(page.getByRole('link', { name: scraperName })).toHaveAttribute('href', new URL(scraperUrl).pathname);
    await page.getByRole('link', { name: /^Changes/ }).click();
    const changes = page.getByRole('table', { name: 'Config changes' });
    await changes.getByRole('row').filter({ has: page.getByRole('cell', { name: 'diff', exact: true }) }).first().click();
    const diff = page.getByRole('dialog').getByRole('table', { name: 'Change diff' });
    await expect(diff.locator('tr[data-kind="added"]').filter({ hasText: 'replicas: 3' })).toBeVisible();
    await expect(diff.locator('tr[data-kind="removed"]').filter({ hasText: 'replicas: 1' })).toBeVisible();

    // Deleting the scraper (after a confirmation) takes it off the list.
    await page.goto(scraperUrl);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Scraper' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`${scraperName} deleted successfully`, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/catalog\/scrapers$/);
    await expect(page.getByRole('table', { name: 'Scrapers' }).getByRole('row', { name: new RegExp(scraperName) })).toHaveCount(0);
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('sees the scrapers and their runs but is offered neither Add Scraper nor Run Now', async ({ page }) => {
      await page.goto('/catalog/scrapers');
      const table = page.getByRole('table', { name: 'Scrapers' });
      await expect(table.getByRole('row').filter({ hasText: 'demo-manifests' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add Scraper' })).toHaveCount(0);
      await table.getByRole('row').filter({ hasText: 'demo-manifests' }).click();
      await expect(page.getByRole('heading', { name: 'demo-manifests' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Run Now' })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Job History' }).click();
      await expect(page.getByRole('table', { name: 'Job history' })).toBeVisible();
    });
  });
});
