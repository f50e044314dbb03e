import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

/** Demo agents (apps/server/src/seed/agents.ts): none of them pushes, so all are Offline. */
const EU = 'edge-eu-west';
const US = 'edge-us-east';
const LOCAL = 'local-demo';
const LAB = 'lab-agent';
const US_CHECK = 'us-east/ingress';

function agentsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Agents' });
}

function agentRow(page: Page, name: string): Locator {
  return agentsTable(page).getByRole('row').filter({ hasText: name });
}

async function gotoAgents(page: Page, path = '/settings/agents'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Agents', exact: true })).toBeVisible();
  await expect(agentsTable(page)).not.toHaveAttribute('aria-busy', 'true');
}

async function agentId(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.get(`/api/db/agents_summary?select=id&name=eq.${encodeURIComponent(name)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const rows = (await response.json()) as { id: string }[];
  expect(rows).toHaveLength(1);
  return rows[0]?.id ?? '';
}

/** The agent's cells by header, for the columns the list shows at desktop width. */
async function cells(page: Page, name: string): Promise<Record<string, string>> {
  const headers = await agentsTable(page).getByRole('columnheader').allInnerTexts();
  const values = await agentRow(page, name).getByRole('cell').allInnerTexts();
  return Object.fromEntries(headers.map((header, index) => [header.trim(), (values[index] ?? '').trim()]));
}

test.describe('agents page', () => {
  test.describe('as an admin', () => {
    test.use({ storageState: storageStateFor('admin'), viewport: { width: 1600, height: 900 } });

    test('lists the demo agents with their counts, Offline status and creator at /agents and /settings/agents', async ({ page }) => {
      await gotoAgents(page, '/agents');
      await expect(agentRow(page, LAB)).toBeVisible();
      expect(await cells(page, EU)).toMatchObject({ Name: EU, Configs: '4', Checks: '3', Scrapers: '1', 'Playbook Runs': '0', Status: 'Offline', 'Created By': 'Ada Admin' });
      expect(await cells(page, US)).toMatchObject({ Configs: '2', Checks: '2', Scrapers: '1', Status: 'Offline' });
      expect(await cells(page, LAB)).toMatchObject({ Checks: '0', Status: 'Offline', 'Last Pushed': 'Never' });
      // The agent npm run demo:agent starts: its probes and scraper wait for it.
      expect(await cells(page, LOCAL)).toMatchObject({ Checks: '2', Scrapers: '1', Status: 'Offline', 'Last Pushed': 'Never' });
      await expect(page.getByRole('button', { name: 'Add Agent' })).toBeVisible();

      await page.getByRole('button', { name: 'Add Agent' }).click();
      await expect(page.getByRole('dialog', { name: 'Add Agent' })).toBeVisible();
      await expect(page).toHaveURL(/addAgent=/);
      await page.keyboard.press('Escape');

      await gotoAgents(page);
      await expect(agentRow(page, EU)).toBeVisible();
      await expect(page).toHaveTitle(/^Agents/);
    });

    test('sorts and changes the page size through the URL and the server', async ({ page }) => {
      await gotoAgents(page);
      // The local demo agent ties with US on checks; the order of the other three says what the sort does.
      const names = async () =>
        (await agentsTable(page).getByRole('row').filter({ has: page.getByRole('cell') }).locator('td:first-child').allInnerTexts()).filter((name) => name !== LOCAL);
      await expect.poll(names).toEqual([EU, US, LAB]);

      await agentsTable(page).getByRole('columnheader', { name: 'Checks' }).getByRole('button').click();
      await expect(page).toHaveURL(/sortBy=checks/);
      const order = new URL(page.url()).searchParams.get('sortOrder');
      await expect.poll(names).toEqual(order === 'desc' ? [EU, US, LAB] : [LAB, US, EU]);
      await agentsTable(page).getByRole('columnheader', { name: 'Checks' }).getByRole('button').click();
      await expect.poll(names).toEqual(order === 'desc' ? [LAB, US, EU] : [EU, US, LAB]);

      const pager = page.getByRole('navigation', { name: 'Pagination' });
      await expect(pager.getByRole('combobox')).toHaveValue('50');
      expect(await pager.getByRole('option').allInnerTexts()).toEqual(['50', '100', '200']);
      const listed = page.waitForRequest((request) => request.url().includes('/api/db/agents_summary') && new URL(request.url()).searchParams.get('limit') === '100');
      await pager.getByRole('combobox').selectOption('100');
      await listed;
      await expect(page).toHaveURL(/pageSize=100/);
      await expect(agentRow(page, LAB)).toBeVisible();
    });

    test('opens the editor of a row through ?id= on the same page', async ({ page, request }) => {
      const id = await agentId(request, EU);
      await gotoAgents(page);
      await agentRow(page, EU).click();
      await expect(page).toHaveURL(new RegExp(`/settings/agents\\?.*id=${id}`));
      const editor = page.getByRole('dialog', { name: 'Edit Agent' });
      await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(EU);
      await expect(editor.getByRole('button', { name: 'Rotate token' })).toBeVisible();
      await editor.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).not.toHaveURL(/id=/);
    });

    test('deletes an agent with cleanup: it leaves the list and its checks leave the health dashboard', async ({ page, request }) => {
      const id = await agentId(request, US);
      await page.goto(`/health?query=${encodeURIComponent(US_CHECK)}`);
      await expect(page.getByRole('table', { name: 'Health checks' }).getByRole('row').filter({ hasText: US_CHECK })).toBeVisible();

      await gotoAgents(page);
      await agentRow(page, US).getByRole('button', { name: `Delete ${US}` }).click();
      const ask = page.getByRole('dialog', { name: `Delete ${US}` });
      await expect(ask).toContainText('Also delete resources the agent created?');
      await ask.getByRole('button', { name: 'Yes' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete agent?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Agent deleted')).toBeVisible();
      await expect(agentRow(page, US)).toHaveCount(0);
      await expect(agentRow(page, EU)).toBeVisible();

      const left = await request.get(`/api/db/checks?select=id&agent_id=eq.${id}&deleted_at=is.null`);
      expect(await left.json()).toEqual([]);
      await page.goto(`/health?query=${encodeURIComponent(US_CHECK)}`);
      await expect(page.getByRole('heading', { name: 'Health', exact: true })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Health checks' }).getByRole('row').filter({ hasText: US_CHECK })).toHaveCount(0);
    });
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('sees the list and the agent read-only, with no add or delete, and the server refuses deletion and rotation', async ({ page, request }) => {
      await gotoAgents(page, '/agents');
      await expect(agentRow(page, EU)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add Agent' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
      await agentRow(page, EU).click();
      const dialog = page.getByRole('dialog', { name: EU });
      await expect(dialog.getByRole('button', { name: 'Close' }).last()).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Rotate token' })).toHaveCount(0);

      const id = await agentId(request, EU);
      const headers = { 'X-Requested-With': 'XMLHttpRequest' };
      expect((await request.delete(`/api/agents/${id}?cleanup=true`, { headers })).status()).toBe(403);
      expect((await request.post(`/api/agents/${id}/token`, { headers })).status()).toBe(403);
      await agentId(request, EU);
    });
  });
});
