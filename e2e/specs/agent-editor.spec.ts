import { expect, test, type APIRequestContext } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const TOKEN_PATTERN = /opsdeck_agent_[A-Za-z0-9_-]{43}/;

async function agentIdByName(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.get(`/api/db/agents_summary?select=id&name=eq.${encodeURIComponent(name)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const rows = (await response.json()) as { id: string }[];
  expect(rows).toHaveLength(1);
  return rows[0]?.id ?? '';
}

test.describe('agent editor', () => {
  test.describe('as an admin', () => {
    test.use({ storageState: storageStateFor('admin') });
    const created: string[] = [];

    test.afterAll(async ({ request }) => {
      // Soft delete, as the agents page does, so the demo data of a later spec is unchanged.
      for (const id of created) await request.patch(`/api/db/agents?id=eq.${id}`, { data: { deleted_at: new Date().toISOString() } });
    });

    test('creates an agent from the health dashboard, shows its token once, then edits it by id', async ({ page, request }) => {
      const name = `e2e-agent-${Date.now()}`;
      await page.goto('/health?addAgent=true');
      const add = page.getByRole('dialog', { name: 'Add Agent' });
      await expect(add).toBeVisible();
      await add.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      await add.getByRole('button', { name: 'Next' }).click();

      const instructions = page.getByRole('dialog', { name: 'Installation Instructions' });
      await expect(instructions).toBeVisible();
      await expect(page.getByText('Agent created')).toBeVisible();
      const id = await agentIdByName(request, name);
      created.push(id);

      await expect(instructions.getByRole('note')).toContainText('shown only once');
      const flux = instructions.getByRole('tabpanel', { name: 'Flux' });
      await expect(flux).toContainText(TOKEN_PATTERN);
      const token = ((await flux.textContent()) ?? '').match(TOKEN_PATTERN)?.[0] ?? '';
      await expect(flux).toContainText(`agentName: "${name}"`);
      await instructions.getByRole('tab', { name: 'Helm CLI' }).click();
      const helm = instructions.getByRole('tabpanel', { name: 'Helm CLI' });
      await expect(helm).toContainText('helm install');
      await expect(helm).toContainText(token);

      await instructions.getByRole('button', { name: 'Done' }).click();
      await expect(instructions).toBeHidden();
      await expect(page).toHaveURL(/\/health$/);

      const stored = await request.get(`/api/agents/${id}`);
      expect(await stored.text()).not.toContain(token);

      await page.goto(`/health?id=${id}`);
      const edit = page.getByRole('dialog', { name: 'Edit Agent' });
      const nameField = edit.getByRole('textbox', { name: 'Name', exact: true });
      await expect(nameField).toHaveValue(name);
      await expect(nameField).not.toBeEditable();
      await edit.getByRole('textbox', { name: 'Description' }).fill('Edited by the end-to-end tests');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Agent updated')).toBeVisible();
      await expect(edit).toBeHidden();
      await expect(page).toHaveURL(/\/health$/);
      const updated = (await (await request.get(`/api/agents/${id}`)).json()) as { description: string | null };
      expect(updated.description).toBe('Edited by the end-to-end tests');
    });
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('gets no editor from addAgent', async ({ page }) => {
      await page.goto('/health?addAgent=true');
      // The page renders once the session has loaded, which is also when the editor decides whether to open.
      await expect(page.getByRole('heading', { name: 'Health', exact: true })).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });
  });
});
