import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

/**
 * The command palette (issue #19 item 3), driven by the keyboard alone: Ctrl+K, type, Enter. The incident is made by
 * this spec and deleted after it; the check is one of the demo's.
 */

const DEMO_CHECK = 'opsdeck/healthz';

function adminApi(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: process.env.E2E_BASE_URL,
    storageState: storageStateFor('admin'),
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
  });
}

async function openPalette(page: Page): Promise<Locator> {
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('combobox')).toBeFocused();
  return dialog;
}

/** Types the text and waits until the server's answer has put `option` first, so Enter opens it. */
async function typeAndWaitFor(page: Page, dialog: Locator, text: string, option: string | RegExp): Promise<void> {
  await page.keyboard.type(text);
  await expect(dialog.getByRole('option', { name: option }).first()).toHaveAttribute('aria-selected', 'true');
}

test.describe('command palette', () => {
  test.use({ storageState: storageStateFor('admin') });

  let api: APIRequestContext;
  let incident: { id: string; title: string };

  test.beforeAll(async () => {
    api = await adminApi();
    const title = `Palette e2e ${Date.now().toString(36)} checkout latency`;
    const response = await api.post('/api/db/incidents?select=id', { data: { title, type: 'performance', severity: 'high' }, headers: { Prefer: 'return=representation' } });
    expect(response.ok(), await response.text()).toBe(true);
    const rows = (await response.json()) as Array<{ id: string }>;
    incident = { id: rows[0]?.id ?? '', title };
  });

  test.afterAll(async () => {
    if (incident.id !== '') await api.delete(`/api/db/incidents?id=eq.${incident.id}`);
    await api.dispose();
  });

  test('Ctrl+K, an incident title and Enter open that incident', async ({ page }) => {
    await page.goto('/preferences');
    await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible();
    const dialog = await openPalette(page);
    await typeAndWaitFor(page, dialog, incident.title, new RegExp(incident.title));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/incidents/${incident.id}$`));
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: incident.title })).toBeVisible();
  });

  test("Ctrl+K, a check's name and Enter open the check on the health page", async ({ page }) => {
    await page.goto('/preferences');
    await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible();
    const dialog = await openPalette(page);
    await typeAndWaitFor(page, dialog, DEMO_CHECK, new RegExp(`^${DEMO_CHECK}`));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/health\?checkId=[0-9a-f-]{36}$/);
    await expect(page.getByRole('dialog', { name: DEMO_CHECK })).toBeVisible();
  });

  test('Ctrl+K on another page finds a settings page, and Enter opens it', async ({ page }) => {
    await page.goto('/incidents');
    await expect(page.getByRole('heading', { name: 'Incidents' }).first()).toBeVisible();
    const dialog = await openPalette(page);
    await typeAndWaitFor(page, dialog, 'feature flags', /^Feature Flags/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/settings\/feature-flags$/);
  });

  test('Escape closes the palette and gives the focus back to the top-bar button', async ({ page }) => {
    await page.goto('/preferences');
    const button = page.getByRole('button', { name: /^Search…/ });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
  });
});

test.describe('command palette on a phone', () => {
  test.use({ storageState: storageStateFor('admin'), viewport: { width: 390, height: 844 } });

  test('is a full-width sheet at 390 px and still opens a page with the keyboard', async ({ page }) => {
    await page.goto('/preferences');
    await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible();
    const dialog = await openPalette(page);
    const box = await dialog.boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.width).toBe(390);
    await typeAndWaitFor(page, dialog, 'health checks', /^Health Checks/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/settings\/canaries$/);
  });
});

test.describe('command palette on a small laptop', () => {
  test.use({ storageState: storageStateFor('admin'), viewport: { width: 1024, height: 768 } });

  test('is a centred panel inside the screen at 1024 px', async ({ page }) => {
    await page.goto('/preferences');
    await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible();
    const dialog = await openPalette(page);
    const box = await dialog.boundingBox();
    expect(box).not.toBeNull();
    const { x = 0, width = 0 } = box ?? {};
    expect(width).toBeLessThanOrEqual(576);
    expect(Math.abs(x + width / 2 - 512)).toBeLessThanOrEqual(1);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});
