import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { LoginPage } from '../pages/login-page';
import { storageStateFor } from '../support/roles';

/**
 * Demo topologies (apps/server/src/seed/topology.ts): Shop holds prod-eu (Platform's), payments-db (warning, Database
 * Reliability's) and the unhealthy Operations group (Database Reliability's), whose Backups job has failing checks and
 * the opsdeck-backups bucket linked, and whose Network has checks but no config.
 */
const SHOP = 'Shop';
const PLATFORM = 'Platform';
const CLUSTER = 'prod-eu';
const DATABASE = 'payments-db';
const OPERATIONS = 'Operations';
const BACKUPS = 'Backups';
const NETWORK = 'Network';
const BUCKET = 'opsdeck-backups';
const DB_TEAM = 'Database Reliability';

interface ComponentNode {
  id: string;
  name: string;
  components?: ComponentNode[];
}

/** The ids of the demo components the spec visits, read from `GET /api/topology` as the page reads them. */
async function demoIds(request: APIRequestContext): Promise<Record<'shop' | 'cluster' | 'operations' | 'network', string>> {
  const get = async (query: string): Promise<ComponentNode[]> => {
    const response = await request.get(`/api/topology${query}`);
    expect(response.ok(), `GET /api/topology${query}`).toBe(true);
    return ((await response.json()) as { components: ComponentNode[] }).components;
  };
  const child = (parent: ComponentNode | undefined, name: string): ComponentNode => {
    const found = parent?.components?.find((component) => component.name === name);
    if (found === undefined) throw new Error(`the demo topology has no ${name} under ${parent?.name ?? 'the roots'}`);
    return found;
  };
  const roots: ComponentNode = { id: '', name: 'the roots', components: await get('') };
  const shop = child(roots, SHOP);
  const operations = child(shop, OPERATIONS);
  // Under the roots the answer holds one level of children only: Network is asked for under Operations.
  const [operationsView] = await get(`?id=${operations.id}`);
  return { shop: shop.id, cluster: child(shop, CLUSTER).id, operations: operations.id, network: child(operationsView, NETWORK).id };
}

function card(page: Page, name: string): Locator {
  return page.getByRole('article', { name, exact: true });
}

function cards(page: Page): Locator {
  return page.getByRole('list', { name: 'Components' }).getByRole('article');
}

async function expectCards(page: Page, names: readonly string[]): Promise<void> {
  await expect
    .poll(async () => (await cards(page).evaluateAll((articles) => articles.map((article) => article.getAttribute('aria-label')))).sort(), { intervals: [100] })
    .toEqual([...names].sort());
}

async function choose(page: Page, dropdown: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: dropdown, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openCardMenu(page: Page, component: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${component}`, exact: true }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

function sidePanel(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Component panel' });
}

/** The side panel's section headers, each a button that opens or closes its section. */
function sectionTriggers(panel: Locator): Locator {
  return panel.getByRole('heading', { level: 3 }).getByRole('button');
}

/** Opens one of the side panel's sections and checks it is the only one open. */
async function openSection(panel: Locator, title: string): Promise<Locator> {
  const trigger = sectionTriggers(panel).filter({ hasText: new RegExp(`^${title}$`) });
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  await expect(sectionTriggers(panel).and(panel.locator('[aria-expanded="true"]'))).toHaveCount(1);
  await expect(panel.getByRole('region')).toHaveCount(1);
  const region = panel.getByRole('region', { name: title, exact: true });
  await expect(region).toBeVisible();
  await expect(region.getByRole('status')).toHaveCount(0);
  return region;
}

/** The names of a zip's entries, from its central directory (the zip format's own index at the end of the file). */
function zipEntryNames(zip: Buffer): string[] {
  const END_OF_DIRECTORY = 0x06054b50;
  const DIRECTORY_ENTRY = 0x02014b50;
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end -= 1;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== DIRECTORY_ENTRY) throw new Error(`broken central directory at entry ${index}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Console errors and failed API calls of the page under test; each of them is a bug the flow ran into. */
const problems = new WeakMap<Page, string[]>();

test.beforeEach(({ page }) => {
  const seen: string[] = [];
  problems.set(page, seen);
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) seen.push(`${response.status()} from ${response.request().method()} ${url.pathname}${url.search}`);
  });
});

test.afterEach(({ page }) => {
  expect(problems.get(page) ?? [], 'console errors or failed API calls').toEqual([]);
});

test.describe('topology', () => {
  test.describe('signing in', () => {
    test.use({ storageState: { cookies: [], origins: [] } });

    test('an admin who signs in and opens / lands on /topology, which shows the roots Shop and Platform as cards', async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signInAs('admin');
      await login.expectSignedIn();
      await page.goto('/');
      await expect(page).toHaveURL(/\/topology$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Topology' })).toBeVisible();
      await expectCards(page, [SHOP, PLATFORM]);
      await expect(card(page, SHOP)).toHaveAttribute('data-status', 'unhealthy');
    });
  });

  test.describe('as an admin', () => {
    test.use({ storageState: storageStateFor('admin') });

    test('drilling into Shop and then prod-eu names the referer in the URL and the path in the breadcrumb, whose links lead back up', async ({ page }) => {
      const ids = await demoIds(page.request);
      await page.goto('/topology');
      await card(page, SHOP).getByRole('link', { name: SHOP, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/topology/${ids.shop}$`));
      await expect(page.getByRole('heading', { level: 1, name: SHOP })).toBeVisible();
      await expectCards(page, [CLUSTER, DATABASE, OPERATIONS]);

      await card(page, CLUSTER).getByRole('link', { name: CLUSTER, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/topology/${ids.cluster}\\?refererId=${ids.shop}$`));
      const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
      await expect(breadcrumb.getByRole('link')).toHaveText(['Topology', SHOP]);
      await expect(breadcrumb.getByRole('heading', { level: 1 })).toHaveText(CLUSTER);
      await expect(cards(page)).not.toHaveCount(0);
      await expect(card(page, SHOP)).toHaveCount(0);

      await breadcrumb.getByRole('link', { name: SHOP, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/topology/${ids.shop}$`));
      await expect(breadcrumb.getByRole('heading', { level: 1 })).toHaveText(SHOP);
      await expectCards(page, [CLUSTER, DATABASE, OPERATIONS]);

      await breadcrumb.getByRole('link', { name: 'Topology', exact: true }).click();
      await expect(page).toHaveURL(/\/topology$/);
      await expectCards(page, [SHOP, PLATFORM]);
    });

    test('filtering by health and by team puts the filter in the URL and leaves only the matching cards', async ({ page }) => {
      const ids = await demoIds(page.request);
      await page.goto(`/topology/${ids.shop}`);
      await expectCards(page, [CLUSTER, DATABASE, OPERATIONS]);

      await choose(page, 'Health', 'warning');
      await expect(page).toHaveURL(/[?&]status=warning(&|$)/);
      await expectCards(page, [DATABASE]);

      await choose(page, 'Health', 'All');
      await expect(page).not.toHaveURL(/status=/);
      await expectCards(page, [CLUSTER, DATABASE, OPERATIONS]);

      await choose(page, 'Team', DB_TEAM);
      await expect(page).toHaveURL(/[?&]team=Database(\+|%20)Reliability(&|$)/);
      await expectCards(page, [DATABASE, OPERATIONS]);

      // The filter is the page's state: a reload keeps it.
      await page.reload();
      await expectCards(page, [DATABASE, OPERATIONS]);
      await expect(page.getByRole('combobox', { name: 'Team', exact: true })).toHaveText(DB_TEAM);
    });

    test("the side panel opens a component's sections one at a time, each with its content or its empty state", async ({ page }) => {
      const ids = await demoIds(page.request);
      await page.goto(`/topology/${ids.operations}`);
      await expectCards(page, [BACKUPS, NETWORK]);
      const menu = await openCardMenu(page, BACKUPS);
      await menu.getByRole('menuitem', { name: 'Open side panel' }).click();
      const panel = sidePanel(page);
      await expect(panel.getByRole('heading', { level: 2 })).toHaveText(BACKUPS);

      const details = await openSection(panel, 'Details');
      await expect(details.getByRole('definition').first()).toHaveText(BACKUPS);
      await expect(details.getByText(DB_TEAM, { exact: true })).toBeVisible();

      const configs = await openSection(panel, 'Configs');
      await expect(configs.getByRole('link', { name: BUCKET, exact: true })).toHaveAttribute('href', /^\/catalog\/[0-9a-f-]{36}$/);

      const checks = await openSection(panel, 'Checks');
      await expect(checks.getByRole('link', { name: 'backup/nightly-job', exact: true })).toBeVisible();
      await expect(checks.getByRole('link', { name: 'backup/archive-folder', exact: true })).toBeVisible();

      const teams = await openSection(panel, 'Teams');
      await expect(teams.getByRole('link', { name: DB_TEAM, exact: true })).toBeVisible();

      const playbooks = await openSection(panel, 'Playbooks');
      await expect(playbooks.getByText('No playbook runs', { exact: true })).toBeVisible();

      // Opening the open section again closes it: none is open then.
      await sectionTriggers(panel).filter({ hasText: /^Playbooks$/ }).click();
      await expect(sectionTriggers(panel).and(panel.locator('[aria-expanded="true"]'))).toHaveCount(0);
      await expect(panel.getByRole('region')).toHaveCount(0);
    });

    test('the card size and the width slider apply to the cards and are kept across a reload', async ({ page }) => {
      await page.goto('/topology');
      const shop = card(page, SHOP);
      await expect(shop).toHaveCSS('width', '258px');

      await choose(page, 'Card size', 'Large');
      await expect(shop).toHaveCSS('width', '356px');
      const slider = page.getByRole('slider', { name: 'Card width' });
      await expect(slider).toHaveValue('356');
      await slider.focus();
      for (let step = 0; step < 5; step += 1) await page.keyboard.press('ArrowRight');
      await expect(slider).toHaveValue('366');
      await expect(shop).toHaveCSS('width', '366px');

      await page.reload();
      await expect(shop).toHaveCSS('width', '366px');
      await expect(card(page, PLATFORM)).toHaveCSS('width', '366px');
      await expect(page.getByRole('combobox', { name: 'Card size', exact: true })).toHaveText('Large');
      await expect(page.getByRole('slider', { name: 'Card width' })).toHaveValue('366');
      await expect(page.getByText('366px', { exact: true })).toBeVisible();
    });

    test("the Snapshot dialog downloads the topology's zip as Shop-snapshot.zip, holding components.json", async ({ page }) => {
      await page.goto('/topology');
      const menu = await openCardMenu(page, SHOP);
      await menu.getByRole('menuitem', { name: 'Snapshot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Snapshot' });
      await expect(dialog).toContainText(SHOP);
      const downloading = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`${SHOP}-snapshot.zip`);
      const zip = readFileSync(await download.path());
      expect(zip.length).toBeGreaterThan(0);
      expect(zipEntryNames(zip)).toContain('components.json');
      await expect(dialog).toBeHidden();
    });

    test('linking a config to a component through Link to config lists it in the Configs section, and unlinking removes it again', async ({ page }) => {
      const ids = await demoIds(page.request);
      const bucket = await page.request.get(`/api/db/configs?select=id&name=eq.${BUCKET}&deleted_at=is.null`);
      const [config] = (await bucket.json()) as { id: string }[];
      if (config === undefined) throw new Error(`the demo catalog has no ${BUCKET}`);
      const link = `/api/db/config_component_relationships?component_id=eq.${ids.network}&config_id=eq.${config.id}&selector_id=eq.manual`;
      try {
        await page.goto(`/topology/${ids.operations}`);
        await expectCards(page, [BACKUPS, NETWORK]);
        const menu = await openCardMenu(page, NETWORK);
        await menu.getByRole('menuitem', { name: 'Link to config' }).click();
        const dialog = page.getByRole('dialog', { name: `Link ${NETWORK} to config` });
        await dialog.getByRole('searchbox', { name: 'Search configs' }).fill(BUCKET);
        const option = dialog.getByRole('radio', { name: new RegExp(`^${BUCKET}\\b`) });
        await expect(dialog.getByRole('radio')).toHaveCount(1);
        await option.check();
        await dialog.getByRole('button', { name: 'Link', exact: true }).click();
        await expect(page.getByText('config link successful', { exact: true })).toBeVisible();
        await expect(dialog).toBeHidden();

        await (await openCardMenu(page, NETWORK)).getByRole('menuitem', { name: 'Open side panel' }).click();
        const panel = sidePanel(page);
        await expect(panel.getByRole('heading', { level: 2 })).toHaveText(NETWORK);
        const configs = await openSection(panel, 'Configs');
        await expect(configs.getByRole('link', { name: BUCKET, exact: true })).toHaveAttribute('href', `/catalog/${config.id}`);

        await configs.getByRole('button', { name: `Unlink ${BUCKET}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Unlink config' });
        await confirm.getByRole('button', { name: 'Unlink', exact: true }).click();
        await expect(page.getByText('Deleted config link successfully', { exact: true })).toBeVisible();
        await expect(confirm).toBeHidden();
        await expect(configs.getByText('No configs linked', { exact: true })).toBeVisible();
      } finally {
        // Whatever failed above, the shared demo server keeps its links as they were.
        const left = await page.request.get(`${link}&select=config_id`);
        if (left.ok() && ((await left.json()) as unknown[]).length > 0) await page.request.delete(link);
      }
    });
  });

  test.describe('the standalone view', () => {
    test.use({ storageState: storageStateFor('admin') });

    test("draws a component's children as cards without the app shell, and says 'Component not found' for an unknown id", async ({ page }) => {
      const ids = await demoIds(page.request);
      await page.goto(`/view/topology/${ids.shop}`);
      await expectCards(page, [CLUSTER, DATABASE, OPERATIONS]);
      await expect(page.locator('#main').getByRole('heading', { level: 1, name: SHOP })).toBeAttached();
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveCount(0);

      await page.goto(`/view/topology/${randomUUID()}`);
      await expect(page.locator('#main p').getByText('Component not found', { exact: true })).toBeVisible();
      await expect(page.locator('#main').getByRole('heading', { level: 1, name: 'Component not found' })).toBeAttached();
      await expect(cards(page)).toHaveCount(0);
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    });
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateFor('viewer') });

    test('sees the cards and their side panel but is offered no Link to config', async ({ page }) => {
      await page.goto('/topology');
      await expectCards(page, [SHOP, PLATFORM]);
      const menu = await openCardMenu(page, SHOP);
      await expect(menu.getByRole('menuitem', { name: 'Snapshot' })).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: 'Link to config' })).toHaveCount(0);
      await menu.getByRole('menuitem', { name: 'Open side panel' }).click();
      const configs = await openSection(sidePanel(page), 'Configs');
      await expect(configs.getByRole('button', { name: 'Link to config' })).toHaveCount(0);
    });
  });
});
