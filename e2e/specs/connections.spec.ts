import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG15_SCRIPT = path.join(ROOT, 'scripts/pg15.sh');
const PG15_BIN = process.env.PG15_BIN ?? '/usr/lib/postgresql/15/bin';
/** The admin-only property that lets checks and connection tests reach databases on the server's own host. */
const ALLOW_LOCAL = 'security.database.allow_local';

interface Cluster {
  url: string;
  dir: string;
}

/**
 * The e2e server runs on embedded PGlite, which speaks the wire protocol only on its own socket, so the test that
 * needs a reachable PostgreSQL starts a throw-away PostgreSQL 15 cluster with the same helper the server tests use.
 */
function startCluster(): Cluster {
  // Playwright sets FORCE_COLOR, which would colour the port number the helper prints with node.
  const { FORCE_COLOR: _forceColor, ...env } = process.env;
  const output = execFileSync('bash', ['-c', `source "${PG15_SCRIPT}" && pg15_start >/dev/null && echo "$PG15_URL" && echo "$PG15_DIR"`], {
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
  const [url, dir] = output.trim().split('\n');
  if (!url || !dir) throw new Error(`pg15_start printed no URL: ${output}`);
  return { url, dir };
}

function stopCluster(cluster: Cluster): void {
  execFileSync('bash', ['-c', `source "${PG15_SCRIPT}" && PG15_DIR="${cluster.dir}" && pg15_stop`]);
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function deleteByName(request: APIRequestContext, name: string): Promise<void> {
  const response = await request.get('/api/canary/connections?limit=1000');
  if (!response.ok()) return;
  const body = (await response.json()) as { data: { id: string; name: string }[] };
  for (const connection of body.data.filter((candidate) => candidate.name === name)) {
    await request.delete(`/api/canary/connections/${connection.id}`);
  }
}

async function expectTestResult(page: Page, text: string | RegExp): Promise<void> {
  const results = page.getByRole('dialog', { name: 'Test Connection Results' });
  await expect(results).toContainText(text, { timeout: 20_000 });
  await results.getByRole('button', { name: 'Close' }).last().click();
  await expect(results).toBeHidden();
}

test.describe('connections', () => {
  test.use({ storageState: storageStateFor('admin') });
  let cluster: Cluster | null = null;
  const name = `e2e-postgres-${Date.now()}`;

  test.beforeAll(() => {
    // npm test installs postgresql-15; without it this spec must fail, not pass silently.
    if (!existsSync(path.join(PG15_BIN, 'initdb'))) throw new Error(`PostgreSQL 15 server binaries not found in ${PG15_BIN}`);
    cluster = startCluster();
  });

  test.afterAll(async ({ request }) => {
    await deleteByName(request, name);
    await request.delete(`/api/db/properties?name=eq.${ALLOW_LOCAL}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    if (cluster) stopCluster(cluster);
  });

  test('an admin adds a postgres connection, tests it against a live and a closed port, and deletes it', async ({ page }) => {
    test.setTimeout(90_000);
    if (!cluster) throw new Error('no PostgreSQL cluster');
    const live = new URL(cluster.url);
    await page.goto('/settings/connections');
    await expect(page.getByRole('heading', { name: 'Connections' })).toBeVisible();

    await page.getByRole('button', { name: 'Add Connection' }).click();
    const panel = page.getByRole('dialog', { name: 'Add Connection' });
    await panel.getByRole('button', { name: 'Postgres', exact: true }).click();
    await panel.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await panel.getByLabel('URL').fill(`postgres://${live.host}/postgres`);
    await panel.getByLabel('Username').fill('postgres');
    await panel.getByLabel(/^Password\*?$/).fill('trust-auth-ignores-this');

    // The cluster listens on this host, which connection tests refuse until an admin allows local databases.
    await panel.getByRole('button', { name: 'Test Connection' }).click();
    await expectTestResult(page, "Refusing to connect to a database on Opsdeck's own host");
    const allowed = await page.request.post('/api/db/properties', { data: { name: ALLOW_LOCAL, value: 'true' } });
    expect(allowed.status(), await allowed.text()).toBe(201);
    await panel.getByRole('button', { name: 'Test Connection' }).click();
    await expectTestResult(page, 'Connection successful');

    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Connection added successfully', { exact: true })).toBeVisible();
    await expect(panel).toBeHidden();
    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Postgres');

    await row.click();
    const editPanel = page.getByRole('dialog', { name: 'Edit Connection' });
    await expect(editPanel.getByText('Password is set — leave empty to keep it')).toBeVisible();
    await editPanel.getByRole('button', { name: 'Test Connection' }).click();
    await expectTestResult(page, 'Connection successful');

    await editPanel.getByLabel('URL').fill(`postgres://127.0.0.1:${await closedPort()}/postgres`);
    await editPanel.getByRole('button', { name: 'Test Connection' }).click();
    // The server's sentence is the message; its internal code stays in the folded details.
    const refused = page.getByRole('dialog', { name: 'Test Connection Results' });
    await expect(refused.getByRole('alert')).toContainText('ECONNREFUSED', { timeout: 20_000 });
    await expect(refused.getByRole('alert')).not.toContainText('OD_CONNECTION_TEST_FAILED');
    await expect(refused.locator('details')).not.toHaveAttribute('open');
    await expectTestResult(page, /ECONNREFUSED/);

    await editPanel.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Connection' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Connection deleted successfully', { exact: true })).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});

test.describe('connections for a viewer', () => {
  test.use({ storageState: storageStateFor('viewer') });

  test('a viewer cannot read connections: the page shows Unauthorized', async ({ page }) => {
    await page.goto('/settings/connections');
    await expect(page.getByRole('heading', { name: 'Unauthorized' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Connections' })).toHaveCount(0);
  });
});
