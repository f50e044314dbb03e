import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { RUN_ID, storageStateFor } from '../support/roles';

/**
 * #19 end to end: an admin creates a personal API token on the profile page (shown once), a script calls the data API
 * with it, the write shows in /settings/audit filtered by the admin as actor and marked as made with a token, the token
 * is revoked on the profile page and the next call with it is refused. Everything made here is removed again.
 */

const unique = `${RUN_ID}-${Date.now()}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
const tokenName = `e2e-token-${unique}`;
const teamName = `e2e-audit-team-${unique}`;
const WIDTHS = [390, 1024, 1440] as const;

/** A client with nothing but the token: no cookies, as a script has. */
function tokenApi(token: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    extraHTTPHeaders: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

function adminApi(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor('admin'),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

/** Revokes the token made here and marks the team deleted, whatever step failed. */
async function cleanUp(): Promise<void> {
  const api = await adminApi();
  try {
    const tokens = await api.get('/api/auth/api-tokens');
    expect(tokens.ok(), `GET tokens: ${tokens.status()}`).toBe(true);
    for (const token of ((await tokens.json()) as { items: Array<{ id: string; name: string }> }).items) {
      if (token.name !== tokenName) continue;
      const revoked = await api.delete(`/api/auth/api-tokens/${token.id}`);
      expect(revoked.status(), `DELETE token: ${await revoked.text()}`).toBe(204);
    }
    const team = await api.delete(`/api/db/teams?name=eq.${encodeURIComponent(teamName)}`);
    expect(team.ok(), `DELETE team: ${team.status()} ${await team.text()}`).toBe(true);
  } finally {
    await api.dispose();
  }
}

async function adminName(page: Page): Promise<string> {
  const whoami = await page.request.get('/api/auth/sessions/whoami');
  expect(whoami.ok()).toBe(true);
  return ((await whoami.json()) as { person: { name: string } }).person.name;
}

test.describe('API tokens and the audit log', () => {
  test.use({ storageState: storageStateFor('admin') });
  test.describe.configure({ mode: 'serial', timeout: 90_000 });

  test.afterAll(async () => {
    await cleanUp();
  });

  test('a token is created once, writes through the API, shows in the audit log, and stops working when revoked', async ({ page }) => {
    await page.goto('/profile-settings');
    const card = page.getByRole('region', { name: 'API Tokens' });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Create token' }).click();

    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByLabel(/^Name/).fill(tokenName);
    await dialog.getByRole('combobox', { name: /^Role/ }).click();
    // An admin may give any role up to admin; an editor token writes teams.
    await expect(page.getByRole('option')).toHaveText(['admin', 'editor', 'commander', 'responder', 'viewer']);
    await page.getByRole('option', { name: 'editor' }).click();
    await dialog.getByRole('combobox', { name: /^Expires in/ }).click();
    await page.getByRole('option', { name: '7 days' }).click();
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'API token created' });
    const token = (await shown.getByTestId('api-token-value').textContent()) ?? '';
    expect(token).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
    await expect(shown.getByRole('button', { name: 'Copy API token' })).toBeVisible();
    await shown.getByRole('button', { name: 'Done' }).click();

    // Listed, with its role and no last use yet, and never shown again.
    const listed = card.getByRole('listitem', { name: tokenName });
    await expect(listed).toContainText('editor');
    await expect(listed).toContainText('Never');
    await page.reload();
    await expect(page.getByRole('region', { name: 'API Tokens' }).getByRole('listitem', { name: tokenName })).toBeVisible();
    expect(await page.content()).not.toContain(token);

    const script = await tokenApi(token);
    try {
      const written = await script.post('/api/db/teams', { data: { name: teamName } });
      expect(written.status(), await written.text()).toBe(201);

      // The audit log, filtered by the admin as actor and by the table, shows the write as made with a token.
      const actor = await adminName(page);
      await page.goto('/settings/audit');
      await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
      await page.getByRole('searchbox', { name: 'Filter by actor' }).fill(actor);
      await expect(page).toHaveURL(/actor=/);
      await page.getByRole('searchbox', { name: 'Filter by resource' }).fill('teams');
      await expect(page).toHaveURL(/resource=teams/);
      expect(new URL(page.url()).searchParams.get('actor')).toBe(actor);
      const table = page.getByRole('table', { name: 'Audit log' });
      const row = table.getByRole('row').filter({ hasText: 'API token' }).filter({ hasText: 'teams' }).first();
      // The row is written just after the response; refresh until it is there.
      await expect(async () => {
        await page.locator('#main').getByRole('button', { name: 'Refresh' }).click();
        await expect(row).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 15_000 });
      await expect(row).toContainText(actor);
      await expect(row).toContainText('create');
      await row.click();
      const details = page.getByRole('dialog', { name: 'Audit entry' });
      await expect(details).toContainText(teamName);
      await page.keyboard.press('Escape');

      // The page reads at a phone's, a laptop's and a desktop's width, without sideways scrolling; on a phone the
      // resource column gives way, the actor and the token mark stay.
      const narrowRow = table.getByRole('row').filter({ hasText: 'API token' }).first();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
        await expect(narrowRow).toBeVisible();
        await expect(narrowRow).toContainText(actor);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1440, height: 900 });

      // Revoked on the profile page, the token is refused at once.
      await page.goto('/profile-settings');
      await page.getByRole('button', { name: `Revoke ${tokenName}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke API token?' });
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      // The open dialog hides the list from the accessibility tree, so the list alone would read empty before the
      // revocation is done: wait for the server's answer (the toast) and the dialog to close first.
      await expect(page.getByText('API token revoked', { exact: true })).toBeVisible();
      await expect(confirm).toBeHidden();
      await expect(page.getByRole('listitem', { name: tokenName })).toHaveCount(0);
      const refused = await script.get('/api/db/teams?select=id&limit=1');
      expect(refused.status()).toBe(401);
    } finally {
      await script.dispose();
    }
  });

  test('the audit log is not offered to an editor and refused by the server', async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateFor('editor') });
    try {
      const page = await context.newPage();
      await page.goto('/settings/audit');
      await expect(page.getByRole('heading', { name: 'Audit Log' })).toHaveCount(0);
      const reply = await page.request.get('/api/db/audit_log?select=id&limit=1', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      expect(reply.status()).toBe(403);
    } finally {
      await context.close();
    }
  });
});
