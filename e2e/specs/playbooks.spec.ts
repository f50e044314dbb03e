import { readFileSync } from 'node:fs';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const SUFFIX = Date.now().toString(36);
const NAME = `e2e-explain-${SUFFIX}`;
const TITLE = `Explain the target ${SUFFIX}`;
/** Runs on the demo's Deployments and http checks; the script reads the parameter and the target from its environment only. */
const SPEC = [
  'configs:',
  '  - types: [Kubernetes::Deployment]',
  'checks:',
  '  - types: [http]',
  'parameters:',
  '  - name: reason',
  '    label: Reason',
  '    required: true',
  '    properties:',
  '      minLength: 3',
  'actions:',
  '  - name: explain',
  '    exec:',
  '      script: echo "looking at ${CONFIG_NAME}${CHECK_NAME} because ${PARAM_REASON}"',
  '',
].join('\n');

function api(role: 'admin' | 'viewer'): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor(role),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

async function firstRow<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.ok(), `GET ${path}: ${response.status()}`).toBe(true);
  const rows = (await response.json()) as T[];
  const row = rows[0];
  if (row === undefined) throw new Error(`the demo has no row for ${path}`);
  return row;
}

/** The value shown under a header label of the run detail. */
function headerField(page: Page, label: string) {
  return page.locator('dl div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
}

async function runFromModal(page: Page, reason: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: `Run Playbook: ${TITLE}` });
  const field = dialog.getByRole('textbox', { name: /Reason/ });
  await field.fill('ab');
  await field.blur();
  await expect(dialog.getByText('Must be at least 3 characters')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Run' })).toBeDisabled();
  await field.fill(reason);
  await dialog.getByRole('button', { name: 'Run' }).click();
  await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/').at(-1) ?? '';
}

async function expectCompletedWith(page: Page, stdout: string): Promise<void> {
  // The page polls every 5 s while the run is active.
  await expect(headerField(page, 'Status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Log output' }).getByRole('region', { name: 'stdout' })).toContainText(stdout);
}

test.describe('playbooks', () => {
  let playbookId: string | undefined;

  test.afterAll(async () => {
    if (playbookId === undefined) return;
    const admin = await api('admin');
    await admin.patch(`/api/db/playbooks?id=eq.${playbookId}`, { data: { deleted_at: new Date().toISOString() } });
    await admin.dispose();
  });

  test.describe('as an admin', () => {
    test.use({ storageState: storageStateFor('admin') });

    test('an admin writes a playbook in the editor, runs it on a Deployment and on an http check, reads its output, downloads the logs and re-runs it', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.goto('/playbooks');
      await page.getByRole('button', { name: 'Create Playbook' }).click();
      const editor = page.getByRole('dialog', { name: 'Create Playbook' });
      await editor.getByRole('textbox', { name: 'Name' }).fill(NAME);
      await editor.getByRole('textbox', { name: 'Title' }).fill(TITLE);
      await editor.getByRole('textbox', { name: 'Category' }).fill('E2E');
      // A field this server does not run (a run-level timeout) is refused by name, and what was typed stays.
      await editor.getByRole('textbox', { name: 'Spec' }).fill(`${SPEC}timeout: 5m\n`);
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect(editor.getByText(/Unable to update playbook spec/)).toBeVisible();
      await expect(editor.getByText(/timeout/).first()).toBeVisible();
      await expect(editor.getByRole('textbox', { name: 'Title' })).toHaveValue(TITLE);
      await editor.getByRole('textbox', { name: 'Spec' }).fill(SPEC);
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect(editor).toBeHidden();
      const card = page.getByRole('region', { name: 'E2E' }).getByRole('link', { name: new RegExp(TITLE) });
      await expect(card).toBeVisible();
      await card.click();
      await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
      playbookId = new URL(page.url()).pathname.split('/').at(-1);

      // From the config page's Playbooks tab.
      const checkout = await firstRow<{ id: string }>(page.request, '/api/db/configs?select=id&name=eq.checkout&type=eq.Kubernetes::Deployment&deleted_at=is.null');
      await page.goto(`/catalog/${checkout.id}/playbooks`);
      await page.getByRole('button', { name: 'Run' }).click();
      await page.getByRole('menuitem', { name: new RegExp(TITLE) }).click();
      const firstRun = await runFromModal(page, 'the rollout stalled');
      await expectCompletedWith(page, 'looking at checkout because the rollout stalled');
      await expect(headerField(page, 'Resource').getByRole('link', { name: 'checkout' })).toBeVisible();

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download logs' }).click();
      await page.getByRole('menuitem', { name: 'All actions' }).click();
      const file = await download;
      expect(readFileSync(await file.path(), 'utf8')).toContain('looking at checkout because the rollout stalled');
      await expect(page.getByText('Downloaded logs', { exact: true }).first()).toBeVisible();

      // Re-run asks again with the same target and parameters, and opens the new run.
      await page.getByRole('button', { name: 'Re-run playbook' }).click();
      await expect(page).not.toHaveURL(new RegExp(firstRun));
      await expect(page).toHaveURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
      await expectCompletedWith(page, 'looking at checkout because the rollout stalled');

      // From an http check's modal.
      const check = await firstRow<{ id: string; name: string }>(page.request, '/api/db/checks?select=id,name&type=eq.http&deleted_at=is.null&order=name');
      await page.goto(`/health?checkId=${check.id}`);
      await page.getByRole('button', { name: 'Playbooks' }).click();
      await page.getByRole('menuitem', { name: new RegExp(TITLE) }).click();
      await runFromModal(page, 'it flapped');
      await expectCompletedWith(page, `looking at ${check.name} because it flapped`);

      // The run list finds both kinds of run by playbook.
      await page.goto(`/playbooks/runs?playbook=${playbookId ?? ''}`);
      await expect(page.getByRole('table', { name: 'Playbook runs' }).getByRole('row')).toHaveCount(4);
    });
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('a viewer reads the playbooks and their runs but is offered no Run, and the server refuses a run request', async ({ page }) => {
      await page.goto('/playbooks');
      await expect(page.getByRole('heading', { name: 'Playbooks', level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create Playbook' })).toHaveCount(0);
      const playbook = await firstRow<{ id: string; title: string }>(page.request, '/api/db/playbooks?select=id,title&deleted_at=is.null&order=name');
      await page.goto(`/playbooks/${playbook.id}`);
      await expect(page.getByRole('heading', { name: playbook.title, level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Run' })).toHaveCount(0);
      const viewer = await api('viewer');
      const refused = await viewer.post('/api/playbook/run', { data: { id: playbook.id } });
      expect(refused.status()).toBe(403);
      await viewer.dispose();
      await page.goto('/playbooks/runs');
      await expect(page.getByRole('table', { name: 'Playbook runs' })).toBeVisible();
    });
  });
});
