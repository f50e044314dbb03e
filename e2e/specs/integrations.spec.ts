import { writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';
import { serverDataFolder } from '../support/server-data';

/** A first run of a new scraper or topology on a 2-core machine shared with the browser. */
const RUN_TIMEOUT_MS = 90_000;

async function openAddIntegration(page: Page) {
  await page.goto('/settings/integrations');
  await page.getByRole('button', { name: 'Add Integration' }).click();
  return page.getByRole('dialog', { name: 'Add Integration' });
}

/** Reloads the list until the integration's row shows a finished first run. */
async function expectJobStatus(page: Page, name: string, status: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Integrations' }).getByRole('row').filter({ hasText: name })).toContainText(status, { timeout: 2_000 });
  }).toPass({ timeout: RUN_TIMEOUT_MS });
}

/** Soft-deletes what a test made, whether or not it got as far as deleting it: later specs see the demo only. */
async function removeCreated(request: APIRequestContext, names: readonly string[]): Promise<void> {
  for (const table of ['topologies', 'config_scrapers']) {
    for (const name of names) {
      await request.patch(`/api/db/${table}?name=eq.${encodeURIComponent(name)}&deleted_at=is.null`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
        data: { deleted_at: new Date().toISOString() },
      });
    }
  }
}

test.describe('integrations', () => {
  test.use({ storageState: storageStateFor('admin') });

  test('a Catalog Scraper and a Custom Topology added through Add Integration are listed with the status of their first run', async ({ page }) => {
    test.setTimeout(240_000);
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000).toString(36)}`;
    const folder = serverDataFolder('scrape', `integrations-${stamp}`);
    writeFileSync(path.join(folder, 'service.yaml'), `name: e2e-svc-${stamp}\nreplicas: 1\n`);

    const scraperName = `e2e-scraper-${stamp}`;
    const topologyName = `e2e-topology-${stamp}`;
    try {
      let dialog = await openAddIntegration(page);
      await dialog.getByRole('button', { name: 'Catalog Scraper' }).click();
      let form = dialog.getByRole('form', { name: 'Catalog Scraper spec' });
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(scraperName);
      await form
        .getByRole('textbox', { name: 'Spec' })
        .fill(['file:', '  - type: E2E::Service', '    id: $.name', '    name: $.name', '    format: yaml', '    icon: file', '    paths:', `      - ${folder}/*.yaml`, ''].join('\n'));
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(`${scraperName} created successfully`, { exact: true })).toBeVisible();
      await expect(dialog).toBeHidden();

      dialog = await openAddIntegration(page);
      await dialog.getByRole('button', { name: 'Custom Topology' }).click();
      form = dialog.getByRole('form', { name: 'Topology spec' });
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(topologyName);
      await expect(form.getByRole('textbox', { name: 'Spec' })).toContainText('components');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(`${topologyName} created successfully`, { exact: true })).toBeVisible();

      await expectJobStatus(page, scraperName, 'SUCCESS');
      await expectJobStatus(page, topologyName, 'SUCCESS');
      const rows = page.getByRole('table', { name: 'Integrations' }).getByRole('row');
      await expect(rows.filter({ hasText: scraperName })).toContainText('Catalog Scraper');
      await expect(rows.filter({ hasText: topologyName })).toContainText('Topology');

      // A row opens its detail page, whose Job History tab holds the run; Delete there returns to the list. Both are
      // deleted so the specs after this one see the demo's topologies and scrapers only.
      for (const [name, kind, segment] of [
        [topologyName, 'Topology', 'topologies'],
        [scraperName, 'Catalog Scraper', 'scrapers'],
      ] as const) {
        await rows.filter({ hasText: name }).click();
        await expect(page).toHaveURL(new RegExp(`/settings/integrations/${segment}/[0-9a-f-]{36}$`));
        await page.getByRole('tab', { name: 'Job History' }).click();
        await expect(page.getByRole('table', { name: 'Job history' }).getByRole('row').nth(1)).toContainText('SUCCESS');
        await page.getByRole('tab', { name: 'Spec' }).click();
        await page.getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('dialog', { name: `Delete ${kind}` }).getByRole('button', { name: 'Delete' }).click();
        await expect(page.getByText(`${name} deleted successfully`, { exact: true })).toBeVisible();
        await expect(page).toHaveURL(/\/settings\/integrations(\?|$)/);
        await expect(rows.filter({ hasText: name })).toHaveCount(0);
      }
    } finally {
      await removeCreated(page.request, [scraperName, topologyName]);
    }
  });

  test('the Kubernetes chart gives checked values, a Flux HelmRelease and a Helm command for the chosen namespace', async ({ page }) => {
    const dialog = await openAddIntegration(page);
    await dialog.getByRole('button', { name: 'Kubernetes' }).click();
    await expect(dialog.getByRole('note')).toContainText('The chart must be installed in Flux');
    await expect(dialog.getByText('The values match the opsdeck-kubernetes 0.1.0 schema.')).toBeVisible();
    const namespace = dialog.getByRole('textbox', { name: /Namespace/ });
    await expect(namespace).toHaveValue('mission-control');
    await namespace.fill('observability');

    await dialog.getByRole('tab', { name: 'Flux' }).click();
    const manifest = (await dialog.getByLabel('Flux manifest', { exact: true }).textContent()) ?? '';
    const [repository, release] = YAML.parseAllDocuments(manifest).map((document) => document.toJS() as Record<string, unknown>);
    expect(repository).toMatchObject({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'HelmRepository' });
    expect(release).toMatchObject({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { namespace: 'observability' },
      spec: { interval: '30m', chart: { spec: { chart: 'opsdeck-kubernetes', version: '0.1.0' } }, values: { clusterName: 'my-cluster' } },
    });

    await dialog.getByRole('tab', { name: 'Helm CLI' }).click();
    await expect(dialog.getByLabel('Helm command', { exact: true })).toContainText('--namespace observability --create-namespace');
  });

  test("an integration path of an unknown type says 'Unknown type'", async ({ page }) => {
    await page.goto('/settings/integrations/dashboards/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('alert')).toContainText('Unknown type');
  });
});
