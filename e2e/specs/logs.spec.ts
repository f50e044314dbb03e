import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { storageStateFor } from '../support/roles';
import { serverDataFolder } from '../support/server-data';

const HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };
const NEEDLE_LINES = 5;

/** Forty lines over the last forty minutes, newest last, five of them carrying the needle. */
function writeLog(file: string, needle: string): void {
  const now = Date.now();
  const lines = Array.from({ length: 40 }, (_, index) => {
    const at = new Date(now - (40 - index) * 60_000).toISOString();
    const message = index % 8 === 3 ? `payment ${index} declined: ${needle}` : `request ${index} served in ${10 + index}ms`;
    return JSON.stringify({ time: at, level: index % 8 === 3 ? 'error' : 'info', msg: message });
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
}

test.describe('logs', () => {
  test.use({ storageState: storageStateFor('admin') });

  test('a file log backend added through Add Integration serves a component on /logs, where found lines are attached to an incident', async ({ page }) => {
    test.setTimeout(180_000);
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000).toString(36)}`;
    const backendName = `e2e-logs-${stamp}`;
    const needle = `e2e-needle-${stamp}`;
    const folder = serverDataFolder('logs', `e2e-${stamp}`);
    writeLog(path.join(folder, 'app.log'), needle);

    const listed = await page.request.get('/api/db/components_with_logs?select=id,name&order=name.asc&limit=1', { headers: HEADERS });
    expect(listed.ok()).toBe(true);
    const [component] = (await listed.json()) as { id: string; name: string }[];
    if (component === undefined) throw new Error('the demo has no component with logs');

    // Add it through the modal: a path outside the log roots is refused with a visible reason, then the real one saves.
    await page.goto('/settings/integrations');
    await page.getByRole('button', { name: 'Add Integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Integration' });
    await dialog.getByRole('button', { name: 'Log Backends' }).click();
    const form = dialog.getByRole('form', { name: 'Log Backend spec' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(backendName);
    const spec = form.getByRole('textbox', { name: 'Spec' });
    await spec.fill(`file:\n  paths:\n    - /etc/*.conf\nroutes:\n  - kind: component\n    name: "${component.name}"\n`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText(/The log backend may not read/).first()).toBeVisible();
    await spec.fill(`file:\n  paths:\n    - e2e-${stamp}/*.log\n  format: json\nroutes:\n  - kind: component\n    name: "${component.name}"\n`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${backendName} created successfully`, { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table', { name: 'Integrations' }).getByRole('row').filter({ hasText: backendName })).toContainText('Log Backend');

    // The component now offers the new backend; the search narrows the lines to the needle.
    await page.goto(`/logs?topologyId=${component.id}`);
    await expect(page.getByRole('combobox', { name: 'Component or config item' })).toHaveValue(component.name);
    await page.getByRole('combobox', { name: 'Log selector' }).click();
    await page.getByRole('option', { name: `${backendName} (file)` }).click();
    await expect(page).toHaveURL(new RegExp(`logsSelector=${backendName}`));
    const grid = page.getByRole('grid');
    await expect(grid.getByRole('row').filter({ hasText: 'served in' }).first()).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search logs' }).fill(needle);
    await expect(page).toHaveURL(new RegExp(`query=${needle}`));
    const found = grid.getByRole('row').filter({ hasText: needle });
    await expect(found).toHaveCount(NEEDLE_LINES);
    await expect(grid.getByRole('row').filter({ hasText: 'served in' })).toHaveCount(0);

    // Two lines selected and linked to a new incident as log evidence.
    await found.nth(0).click();
    await found.nth(1).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Attach as Evidence' }).click();
    const link = page.getByRole('dialog', { name: 'Link to Incident' });
    await link.getByRole('combobox', { name: /Incident/ }).click();
    await page.getByRole('option', { name: 'Create new incident' }).click();
    await link.getByRole('textbox', { name: /Incident title/ }).fill(`payments declined ${stamp}`);
    await link.getByRole('button', { name: 'Link' }).click();
    await expect(link).toBeHidden();
    await expect(page.getByRole('link', { name: /^INC-\d+$/ })).toBeVisible();
    const evidence = await page.request.get(`/api/db/evidences?select=type,component_id,evidence&component_id=eq.${component.id}&type=eq.log&order=created_at.desc&limit=1`, {
      headers: HEADERS,
    });
    expect(evidence.ok()).toBe(true);
    const [saved] = (await evidence.json()) as { type: string; component_id: string; evidence: unknown }[];
    expect(saved?.component_id).toBe(component.id);
    expect(JSON.stringify(saved?.evidence)).toContain(needle);

    // Later specs see the demo's backends only.
    const removed = await page.request.patch(`/api/db/logging_backends?name=eq.${backendName}`, {
      headers: { ...HEADERS, 'Content-Type': 'application/json' },
      data: { deleted_at: new Date().toISOString() },
    });
    expect(removed.ok()).toBe(true);
  });

  test('a search nothing matches says so', async ({ page }) => {
    const listed = await page.request.get('/api/db/components_with_logs?select=id&order=name.asc&limit=1', { headers: HEADERS });
    const [component] = (await listed.json()) as { id: string }[];
    if (component === undefined) throw new Error('the demo has no component with logs');
    await page.goto(`/logs?topologyId=${component.id}&query=${encodeURIComponent('no line says this 7f3a')}`);
    await expect(page.getByText('There are no logs matching the search query')).toBeVisible();
  });

  test("a demo deployment, which the demo backend's config routes serve, is picked on /logs by its name and cluster, and its catalog page links to its logs", async ({ page }) => {
    const listed = await page.request.get('/api/db/config_items_with_logs?select=id,name,tags&type=eq.Kubernetes::Deployment&name=eq.checkout&order=id', { headers: HEADERS });
    expect(listed.ok()).toBe(true);
    const items = (await listed.json()) as { id: string; name: string; tags: Record<string, string> }[];
    const item = items.find((row) => row.tags.cluster !== undefined);
    if (item === undefined) throw new Error('the demo has no checkout deployment with logs');
    const place = `${item.tags.cluster ?? ''} / ${item.tags.namespace ?? ''}`;

    await page.goto('/logs');
    const picker = page.getByRole('combobox', { name: 'Component or config item' });
    await expect(picker).toBeEnabled();
    await picker.fill('checkout');
    await page.getByRole('group', { name: 'Config items' }).getByRole('option').filter({ hasText: place }).click();
    await expect(page).toHaveURL(new RegExp(`topologyId=${item.id}`));
    await expect(picker).toHaveValue(`checkout (${place})`);
    const grid = page.getByRole('grid', { name: 'Log lines of checkout' });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    // The volume above the lines says in words what its bars draw.
    await expect(page.getByRole('figure', { name: 'Log volume' }).getByRole('img')).toHaveAttribute('aria-label', /^Log volume: [\d,]+ lines? from .+ per bar/);

    await page.goto(`/catalog/${item.id}`);
    await page.getByRole('link', { name: 'View logs' }).click();
    await expect(page).toHaveURL(new RegExp(`/logs\\?topologyId=${item.id}`));
    await expect(page.getByRole('grid', { name: 'Log lines of checkout' }).getByRole('row').nth(1)).toBeVisible();
  });

  test('at 390 px a search marks its matches in lines that wrap, with no sideways scroll', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const listed = await page.request.get('/api/db/components_with_logs?select=id&name=eq.checkout&type=eq.Service&limit=1', { headers: HEADERS });
    const [component] = (await listed.json()) as { id: string }[];
    if (component === undefined) throw new Error('the demo has no checkout service with logs');
    await page.goto(`/logs?topologyId=${component.id}&query=order&start=1d`);
    const grid = page.getByRole('grid');
    await expect(grid.locator('mark').first()).toBeVisible();
    const marked = await grid.locator('mark').allTextContents();
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((text) => text.toLowerCase() === 'order')).toBe(true);
    await expect(page.getByRole('columnheader')).toHaveText(['Time, message and labels']);
    const overflow = await grid.evaluate((table) => {
      const scroller = table.parentElement;
      return { table: scroller === null ? 0 : scroller.scrollWidth - scroller.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    expect(overflow).toEqual({ table: 0, page: 0 });
  });
});
