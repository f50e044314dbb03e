import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

const PATH = '/settings/event-queue-status';
/** The seed's consumer whose deliveries failed until the queue gave up (apps/server/src/seed/events.ts). */
const FAILING_CONSUMER = 'demo-webhook';
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

function queueRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Event queue' }).getByRole('row').filter({ hasText: name });
}

/** A failed delivery of its own per test, so a retried test never finds the one before already reset. */
async function failedEvent(request: APIRequestContext, name: string): Promise<void> {
  const made = await request.post('/api/db/event_queue', {
    headers: HEADERS,
    data: { name, consumer: FAILING_CONSUMER, error: 'POST http://127.0.0.1:9/hooks: connect ECONNREFUSED', attempts: 5, last_attempt: new Date().toISOString() },
  });
  expect(made.status(), await made.text()).toBe(201);
}

test.describe('event queue', () => {
  test.describe('as an admin', () => {
    test.use({ storageState: storageStateFor('admin') });

    test('lists the failing consumer with its counts and shows its most common error', async ({ page }) => {
      await page.goto(PATH);
      await expect(page.getByRole('heading', { name: 'Event Queue' })).toBeVisible();
      for (const header of ['Name', 'Pending Count', 'Error Count', 'Average Attempts', 'First Failed At', 'Last Failed At']) {
        await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
      }
      const row = queueRow(page, 'check.failed').filter({ hasText: FAILING_CONSUMER });
      await expect(row).toHaveCount(1);
      // Three seeded failures, none pending, 4.67 attempts on average.
      await expect(row.getByRole('cell').nth(1)).toHaveText('0');
      await expect(row.getByRole('cell').nth(2)).toHaveText('3');
      await expect(row.getByRole('cell').nth(3)).toHaveText('4.67');

      await row.getByRole('cell').first().click();
      const dialog = page.getByRole('dialog', { name: 'Most Common Error for check.failed' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText('Seeded demo failure: POST https://hooks.example.com/opsdeck: connect ECONNREFUSED');
    });

    test('Retry makes the failed events of a name pending again', async ({ page, request }) => {
      const name = `e2e.retry_${Date.now()}`;
      await failedEvent(request, name);
      await page.goto(PATH);
      const row = queueRow(page, name);
      await expect(row.getByRole('cell').nth(2)).toHaveText('1');
      await row.getByRole('button', { name: `Retry ${name}` }).click();
      await expect(page.getByText(`1 ${name} event queued for retry`, { exact: true }).first()).toBeVisible();
      await expect(row.getByRole('cell').nth(1)).toHaveText('1');
      await expect(row.getByRole('cell').nth(2)).toHaveText('0');
      await expect(row.getByRole('button', { name: `Retry ${name}` })).toHaveCount(0);
      await request.delete(`/api/db/event_queue?name=eq.${encodeURIComponent(name)}`, { headers: HEADERS });
    });
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('sees the queue but cannot retry', async ({ page, request }) => {
      await page.goto(PATH);
      await expect(queueRow(page, 'check.failed').filter({ hasText: FAILING_CONSUMER })).toHaveCount(1);
      await expect(page.getByRole('button', { name: /^Retry / })).toHaveCount(0);
      const refused = await request.post('/api/event-queue/retry', { headers: HEADERS, data: { name: 'check.failed' } });
      expect(refused.status()).toBe(403);
    });
  });
});
