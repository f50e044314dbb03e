import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { storageStateFor } from '../support/roles';

/** Check names from the demo canaries (apps/server/src/seed/health.ts). */
const PASSING = 'opsdeck/healthz';
const FAILING = 'backup/nightly-job';
const FOLDER = 'host/tmp-folder';
/** Passes now but failed once three hours ago: the demo's one warning over the default day. */
const FLAPPED = 'opsdeck/version';

function checksTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Health checks' });
}

function checkRow(page: Page, name: string): Locator {
  return checksTable(page).getByRole('row').filter({ hasText: name });
}

async function gotoHealth(page: Page, search = ''): Promise<void> {
  await page.goto(`/health${search}`);
  await expect(page.getByRole('heading', { name: 'Health', exact: true })).toBeVisible();
  await expect(checksTable(page)).not.toHaveAttribute('aria-busy', 'true');
}

async function choose(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openCheck(page: Page, name: string): Promise<Locator> {
  await checkRow(page, name).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The history's total, read from its pager ('N items'); an empty history has no pager. */
async function historyTotal(dialog: Locator): Promise<number> {
  const total = dialog.getByRole('navigation', { name: 'Pagination' }).getByText(/^\d+ items$/);
  if ((await total.count()) === 0) return 0;
  return Number(((await total.textContent()) ?? '').split(' ')[0]);
}

test.describe('health dashboard', () => {
  test.use({ storageState: storageStateFor('admin') });

  test('lists the demo checks and is linked from the sidebar', async ({ page }) => {
    await page.goto('/preferences');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Health' }).click();
    await expect(page).toHaveURL(/\/health$/);
    for (const header of ['Checks', 'Health', 'Uptime', 'Latency', 'Transition']) {
      await expect(checksTable(page).getByRole('columnheader', { name: header })).toBeVisible();
    }
    await expect(checkRow(page, PASSING)).toBeVisible();
    await expect(checkRow(page, FAILING)).toBeVisible();
  });

  test('searches, filters, groups and tabs the checks', async ({ page }) => {
    await gotoHealth(page);

    await page.getByRole('searchbox', { name: 'Search by name, description, or endpoint' }).fill('backup');
    await expect(page).toHaveURL(/query=backup/);
    await expect(checkRow(page, FAILING)).toBeVisible();
    await expect(checkRow(page, PASSING)).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Search by name, description, or endpoint' }).fill('');
    await expect(checkRow(page, PASSING)).toBeVisible();

    await page.getByRole('switch', { name: 'Hide Passing' }).click();
    await expect(checkRow(page, PASSING)).toHaveCount(0);
    await expect(checkRow(page, FAILING)).toBeVisible();
    await page.getByRole('switch', { name: 'Hide Passing' }).click();

    await page.getByRole('button', { name: /^team/ }).click();
    await page.getByRole('dialog', { name: 'team filter' }).getByRole('button', { name: 'Include network' }).click();
    await page.keyboard.press('Escape');
    await expect(checkRow(page, 'network/loopback')).toBeVisible();
    await expect(checkRow(page, PASSING)).toHaveCount(0);
    await page.goto('/health');

    await choose(page, 'Group By', 'Group Name');
    await expect(page).toHaveURL(/groupBy=canary_name/);
    const edge = checkRow(page, 'edge');
    await expect(edge).toBeVisible();
    await expect(checkRow(page, 'network/loopback')).toHaveCount(0);
    await edge.getByRole('button', { name: 'Expand edge' }).click();
    await expect(checkRow(page, 'network/loopback')).toBeVisible();
    await expect(checkRow(page, 'network/legacy-service')).toBeVisible();
    await choose(page, 'Group By', 'No Grouping');

    await choose(page, 'Tab By', 'team');
    const tabs = page.getByRole('tablist', { name: 'Check tabs' }).getByRole('tab');
    await expect(tabs).toHaveText([/^All/, /^data/, /^network/, /^platform/]);
    await page.getByRole('tab', { name: /^network/ }).click();
    await expect(checkRow(page, 'network/loopback')).toBeVisible();
    await expect(checkRow(page, FAILING)).toHaveCount(0);
  });

  test('opening a check shows its tiles and its history', async ({ page }) => {
    await gotoHealth(page);
    const dialog = await openCheck(page, PASSING);
    for (const tile of ['Uptime', 'Latency 95%', 'Latency 97%', 'Latency 99%', 'Severity', 'Last Run', 'Transitioned', 'Next Run']) {
      await expect(dialog.getByRole('group', { name: tile, exact: true })).toBeVisible();
    }
    await expect(dialog.getByRole('group', { name: 'Uptime' })).toContainText(/\d+ passed/);
    const history = dialog.getByRole('table', { name: 'Check history' });
    await expect(history.getByRole('row').nth(1)).toContainText('Healthy', { ignoreCase: true });
    expect(await historyTotal(dialog)).toBeGreaterThan(0);
    await expect(dialog.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', /^\/settings\/canaries\/[0-9a-f-]{36}$/);
    await expect(page).toHaveURL(/checkId=[0-9a-f-]{36}/);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/checkId=/);
  });

  test('the Uptime tile and the Health Overview chart count the same runs, on a chart with axes and tooltips', async ({ page }) => {
    await gotoHealth(page);
    const summary = await page.request.get(`/api/canary/api/summary?query=${encodeURIComponent(FLAPPED)}`);
    const id = ((await summary.json()) as { checks_summary: { id: string }[] }).checks_summary[0]?.id ?? '';
    for (const range of ['1h', '1d', '1w']) {
      const reply = await page.request.get(`/api/canary/api/details?check=${id}&start=${range}`);
      const detail = (await reply.json()) as { uptime: { passed: number; failed: number }; series: { points: { passed: number; failed: number }[] } };
      const chart = detail.series.points.reduce((sum, point) => ({ passed: sum.passed + point.passed, failed: sum.failed + point.failed }), { passed: 0, failed: 0 });
      expect({ passed: detail.uptime.passed, failed: detail.uptime.failed }, range).toEqual(chart);
    }

    const dialog = await openCheck(page, FLAPPED);
    const tile = dialog.getByRole('group', { name: 'Uptime' });
    await expect(tile).toContainText(/\d+ passed/);
    const [, passed, failed] = /(\d+) passed (\d+) failed/.exec((await tile.textContent()) ?? '') ?? [];
    const chart = dialog.getByRole('region', { name: 'Health Overview' });
    await expect(chart.getByTestId('chart-totals')).toHaveText(`${passed} passed · ${failed} failed`);
    // A time axis, a run count axis and a latency axis.
    await expect(chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toHaveText(/\d:\d\d (AM|PM)$/);
    await expect(chart.locator('.recharts-yAxis-tick-labels')).toHaveCount(2);
    await expect(chart.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value', { hasText: /\dms$/ }).first()).toBeVisible();
    const plot = chart.locator('.recharts-wrapper');
    const box = await plot.boundingBox();
    if (box === null) throw new Error('the chart has no size');
    // Over the newest bucket, at the right end of the time axis.
    await plot.hover({ position: { x: box.width - 70, y: box.height / 2 } });
    await expect(chart.getByRole('status', { name: 'Bucket details' })).toContainText(/\d+ passed/);
  });

  test('tab counts follow the filters and a search without match keeps the label filters', async ({ page }) => {
    await gotoHealth(page, '?tabBy=team');
    const allTab = page.getByRole('tab', { name: /^All/ });
    const rows = checksTable(page).locator('tbody tr');
    await expect(checkRow(page, FAILING)).toBeVisible();
    const everyCheck = await rows.count();
    await expect(allTab).toHaveText(`All${everyCheck}`);
    await page.getByRole('switch', { name: 'Hide Passing' }).click();
    // Which checks pass depends on the live runs; the tab counts whatever the table is left with.
    await expect.poll(async () => (await rows.count()) < everyCheck).toBe(true);
    await expect(allTab).toHaveText(`All${await rows.count()}`);

    await page.getByRole('searchbox', { name: 'Search by name, description, or endpoint' }).fill('no-such-check');
    await expect(checksTable(page).getByText('No data available')).toBeVisible();
    await expect(allTab).toHaveText('All0');
    await page.getByRole('button', { name: /^team/ }).click();
    await expect(page.getByRole('dialog', { name: 'team filter' }).getByRole('button', { name: 'Include network' })).toBeVisible();
  });

  test('Run Now records a new history row', async ({ page }) => {
    await gotoHealth(page);
    const dialog = await openCheck(page, FOLDER);
    await expect.poll(() => historyTotal(dialog)).toBeGreaterThan(0);
    const before = await historyTotal(dialog);
    await dialog.getByRole('button', { name: 'Run Now' }).click();
    await expect(page.getByText('You have successfully initiated the check run.')).toBeVisible();
    await expect.poll(() => historyTotal(dialog), { timeout: 20_000 }).toBeGreaterThan(before);
  });

  test("an exec check keeps its script's file, downloaded from the check's Artifacts tab", async ({ page }) => {
    await gotoHealth(page);
    const dialog = await openCheck(page, 'host/disk-space');
    // The seed writes history rows without running anything: a run asked for now is what keeps the file.
    await expect.poll(() => historyTotal(dialog)).toBeGreaterThan(0);
    const before = await historyTotal(dialog);
    await dialog.getByRole('button', { name: 'Run Now' }).click();
    await expect.poll(() => historyTotal(dialog), { timeout: 20_000 }).toBeGreaterThan(before);
    await dialog.getByRole('tab', { name: 'Artifacts' }).click();
    const link = dialog.getByRole('link', { name: 'df.txt' });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('df.txt');
    expect(await readFile(await download.path(), 'utf8')).toMatch(/^Filesystem/);
  });

  test('a failing check is shown red in the table and in its detail', async ({ page }) => {
    await gotoHealth(page);
    await expect(checkRow(page, FAILING).getByRole('img', { name: 'unhealthy' })).toHaveAttribute('data-color', 'red');
    await expect(checkRow(page, PASSING).getByRole('img', { name: 'healthy' })).toHaveAttribute('data-color', 'green');
    const dialog = await openCheck(page, FAILING);
    await expect(dialog.getByTestId('check-health').locator('[data-color]')).toHaveAttribute('data-color', 'red');
    await expect(dialog.getByRole('table', { name: 'Check history' }).getByRole('row').nth(1)).toContainText('unhealthy');
  });

  test('/health?status=unhealthy lists only failing checks', async ({ page }) => {
    await gotoHealth(page, '?status=unhealthy');
    await expect(checkRow(page, FAILING)).toBeVisible();
    await expect(checkRow(page, PASSING)).toHaveCount(0);
  });

  test('/health?status=warning lists only checks that pass now but failed in the range, in orange', async ({ page }) => {
    await gotoHealth(page, '?status=warning');
    await expect(checkRow(page, FLAPPED)).toBeVisible();
    await expect(checkRow(page, FLAPPED).getByRole('img', { name: 'warning' })).toHaveAttribute('data-color', 'orange');
    await expect(checkRow(page, PASSING)).toHaveCount(0);
    await expect(checkRow(page, FAILING)).toHaveCount(0);
    const dots = checksTable(page).locator('tbody [role="img"][data-color]');
    expect(await dots.count()).toBeGreaterThan(0);
    for (const color of await dots.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-color')))) expect(color).toBe('orange');
  });

  test('pivots the checks by a label into a matrix of uptime, then of health, and opens a check from a cell', async ({ page }) => {
    await page.goto('/health?pivotBy=labels&pivotLabel=team&pivotCellType=uptime');
    const pivot = page.getByRole('table', { name: 'Health pivot' });
    await expect(pivot.getByRole('columnheader')).toHaveText(['Checks', 'data', 'network', 'platform']);
    await expect(pivot.getByRole('button', { name: `${FAILING}, data: 0%`, exact: true })).toHaveText('0%');
    await expect(pivot.getByRole('button', { name: `${PASSING}, platform: 100%`, exact: true })).toHaveText('100%');
    await expect(pivot.getByRole('button', { name: /^opsdeck\/version, platform: 99(\.\d)?%$/ })).toBeVisible();
    // A check lives under one team: its other cells are empty.
    await expect(pivot.getByRole('button', { name: new RegExp(`^${PASSING}, (data|network):`) })).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Health checks' })).toHaveCount(0);

    await choose(page, 'Cell', 'Health');
    await expect(page).not.toHaveURL(/pivotCellType=/);
    await expect(page).toHaveURL(/pivotBy=labels&pivotLabel=team/);
    await expect(pivot.getByRole('button', { name: `${FAILING}, data: unhealthy`, exact: true }).locator('[data-color]')).toHaveAttribute('data-color', 'red');
    await expect(pivot.getByRole('button', { name: `${FLAPPED}, platform: warning`, exact: true }).locator('[data-color]')).toHaveAttribute('data-color', 'orange');
    await expect(pivot.getByRole('button', { name: `${PASSING}, platform: healthy`, exact: true }).locator('[data-color]')).toHaveAttribute('data-color', 'green');

    await pivot.getByRole('button', { name: `${PASSING}, platform: healthy`, exact: true }).click();
    await expect(page.getByRole('dialog', { name: PASSING })).toBeVisible();
    await expect(page).toHaveURL(/checkId=[0-9a-f-]{36}/);
  });
});

test.describe('health dashboard on a 390 px phone', () => {
  test.use({ storageState: storageStateFor('admin'), viewport: { width: 390, height: 844 } });

  test('shows checks on the first screen, with the filters folded behind one button', async ({ page }) => {
    await gotoHealth(page);
    const filterByLabel = page.getByRole('heading', { name: 'Filter by Label' });
    await expect(filterByLabel).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Group By' })).toBeHidden();
    const firstRow = checksTable(page).getByRole('row').nth(1);
    await expect(firstRow).toBeVisible();
    const box = await firstRow.boundingBox();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(844);

    const filters = page.getByRole('button', { name: /^Filters/ });
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await expect(filterByLabel).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Group By' })).toBeVisible();
  });

  test("a check's Edit, Playbooks, Attach as Evidence and Run Now are all within reach", async ({ page }) => {
    await gotoHealth(page);
    const dialog = await openCheck(page, PASSING);
    const actions = [
      dialog.getByRole('link', { name: 'Edit' }),
      dialog.getByRole('button', { name: 'Playbooks' }),
      dialog.getByRole('button', { name: 'Attach as Evidence' }),
      dialog.getByRole('button', { name: 'Run Now' }),
    ];
    for (const action of actions) {
      await expect(action).toBeInViewport({ ratio: 1 });
    }
  });

  test('keeps the filters in view and offers no Filters button on a wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await gotoHealth(page);
    await expect(page.getByRole('heading', { name: 'Filter by Label' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
  });
});

test.describe('health dashboard for a viewer', () => {
  test.use({ storageState: storageStateFor('viewer') });

  test('a viewer sees the check but cannot Run Now', async ({ page }) => {
    await gotoHealth(page);
    const dialog = await openCheck(page, PASSING);
    await expect(dialog.getByRole('group', { name: 'Uptime' })).toBeVisible();
    await expect(dialog.getByRole('table', { name: 'Check history' }).getByRole('row').nth(1)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Run Now' })).toHaveCount(0);
    await expect(dialog.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  });

  test('the server refuses Run Now from a viewer too', async ({ page }) => {
    await gotoHealth(page);
    const summary = await page.request.get('/api/canary/api/summary?pageSize=1');
    const body = (await summary.json()) as { checks_summary: { id: string }[] };
    const id = body.checks_summary[0]?.id ?? '';
    const run = await page.request.post(`/api/canary/run/check/${id}`);
    expect(run.status()).toBe(403);
  });
});
