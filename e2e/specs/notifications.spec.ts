import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const PATH = '/settings/notifications';
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };
/** From a failed check to a delivered webhook: the scheduler's first run, the event queue and one send. */
const DELIVERY_TIMEOUT_MS = 90_000;

interface Hook {
  server: Server;
  url: string;
  /** The bodies received so far, as text. */
  bodies: string[];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** A webhook receiver on loopback in the test process, which the server's generic webhook delivers to. */
function startHook(): Promise<Hook> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      bodies.push(body);
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"ok":true}');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/hook`, bodies });
    });
  });
}

function stopHook(hook: Hook): Promise<void> {
  return new Promise((resolve) => hook.server.close(() => resolve()));
}

/** A loopback port nothing listens on, so an http check against it fails with a refused connection. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function created<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

function notificationsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Notifications' });
}

/** The text of one cell of a row, found by its column header, so a new column does not break the spec. */
async function cellOf(page: Page, row: Locator, header: string): Promise<string> {
  const headers = (await notificationsTable(page).getByRole('columnheader').allInnerTexts()).map((text) => text.trim());
  const index = headers.indexOf(header);
  expect(index, `no ${header} column in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return ((await row.getByRole('cell').nth(index).textContent()) ?? '').trim();
}

test.describe('notifications', () => {
  test.use({ storageState: storageStateFor('admin'), viewport: { width: 1440, height: 900 } });

  test('a failing check is delivered to a generic webhook and shows in the history and the sent count', async ({ page, request }) => {
    test.setTimeout(DELIVERY_TIMEOUT_MS + 60_000);
    const stamp = Date.now();
    const title = `e2e check failures ${stamp}`;
    const checkName = `e2e-closed-port-${stamp}`;
    const hook = await startHook();
    const cleanup: (() => Promise<unknown>)[] = [];

    try {
      const connection = await created<{ id: string; name: string }>(
        await request.post('/api/canary/connections', {
          headers: HEADERS,
          data: { name: `e2e-hook-${stamp}`, namespace: 'default', type: 'generic_webhook', url: hook.url },
        }),
      );
      cleanup.push(() => request.delete(`/api/canary/connections/${connection.id}`, { headers: HEADERS }));

      await page.goto(PATH);
      await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
      await page.getByRole('button', { name: 'Add Notification' }).click();
      const form = page.getByRole('dialog', { name: 'Create Notification' });
      await form.getByRole('textbox', { name: 'Title' }).fill(title);
      await form.getByRole('checkbox', { name: 'check.failed', exact: true }).check();
      // Only this test's check, so the demo's own failing checks do not reach the hook.
      await form.getByRole('textbox', { name: 'Filter' }).fill(`check.name == '${checkName}'`);
      await form.getByRole('radio', { name: 'Others' }).check();
      await form.getByRole('button', { name: 'Add connection' }).click();
      await form.getByRole('combobox', { name: 'Connection' }).selectOption({ label: `${connection.name} (generic_webhook)` });
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e hook');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Notification created successfully').first()).toBeVisible();
      await expect(form).toBeHidden();
      cleanup.push(() =>
        request.patch(`/api/db/notifications?title=eq.${encodeURIComponent(title)}`, { headers: HEADERS, data: { deleted_at: new Date().toISOString() } }),
      );
      const row = notificationsTable(page).getByRole('row').filter({ hasText: title });
      await expect(row).toHaveCount(1);

      // The canary comes after the notification, so the check's first failure is an event the notification sees.
      const port = await closedPort();
      const canary = await created<{ id: string; checks: { id: string; name: string }[] }>(
        await request.post('/api/canary/canaries', {
          headers: HEADERS,
          data: { name: `e2e-notify-${stamp}`, schedule: '@every 1m', spec: { http: [{ name: checkName, url: `http://127.0.0.1:${port}/` }] } },
        }),
      );
      cleanup.push(() => request.delete(`/api/canary/canaries/${canary.id}`, { headers: HEADERS }));
      const check = canary.checks.find((candidate) => candidate.name === checkName);
      expect(check, JSON.stringify(canary.checks)).toBeDefined();
      const run = await request.post(`/api/canary/run/check/${check?.id ?? ''}`, { headers: HEADERS });
      expect(run.status(), await run.text()).toBe(202);

      await expect.poll(() => hook.bodies.some((body) => body.includes(checkName)), { timeout: DELIVERY_TIMEOUT_MS }).toBe(true);

      await expect
        .poll(
          async () => {
            await page.reload();
            await expect(row).toHaveCount(1);
            return Number(await cellOf(page, row, 'Sent'));
          },
          { timeout: 30_000 },
        )
        .toBeGreaterThanOrEqual(1);

      await row.click();
      const editor = page.getByRole('dialog', { name: 'Edit Notification' });
      await expect(editor.getByRole('textbox', { name: 'Title' })).toHaveValue(title);
      await editor.getByRole('tab', { name: 'Delivery History' }).click();
      const delivery = editor.getByRole('table', { name: 'Delivery history' }).getByRole('row').filter({ hasText: 'check.failed' }).first();
      await expect(delivery).toContainText('Sent');
      await expect(delivery.locator('[data-status="sent"]')).toBeVisible();
      await editor.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(editor).toBeHidden();
    } finally {
      for (const undo of cleanup.reverse()) await undo();
      await stopHook(hook);
    }
  });

  test("a Send test of the demo's webhook notification arrives in the demo inbox, without any endpoint of one's own", async ({ page }) => {
    await page.goto(PATH);
    await notificationsTable(page).getByRole('row').filter({ hasText: 'Config changes' }).first().click();
    const editor = page.getByRole('dialog', { name: 'Edit Notification' });
    await editor.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByText(/^Test sent\./)).toBeVisible();
    await editor.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByRole('link', { name: 'Demo inbox' }).click();
    await expect(page.getByRole('heading', { name: 'Demo inbox' })).toBeVisible();
    const message = page.getByRole('list', { name: 'Received messages' }).getByRole('listitem').filter({ hasText: 'Webhook opsdeck' }).first();
    await expect(message).toContainText('Test of the notification Config changes');
  });

  test.describe('as a responder', () => {
    test.use({ storageState: storageStateFor('responder') });

    test('a responder sees the notifications without the add button', async ({ page }) => {
      await page.goto(PATH);
      await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
      await expect(notificationsTable(page)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add Notification' })).toHaveCount(0);
    });
  });
});
