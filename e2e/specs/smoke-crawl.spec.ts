import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { axeFindings, BLOCKING_IMPACTS, type AxeFinding } from '../support/axe';
import { discoverDetailTargets, navigationTarget, type CrawlOpening, type CrawlTarget } from '../support/crawl-targets';
import { loadNavigationRoutes } from '../support/navigation-routes';
import { ROLES, storageStateFor } from '../support/roles';

/** A phone, a small laptop (the `lg` breakpoint, where the sidebar stops being a drawer) and a desktop. */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;
/** From this width on the page itself may never scroll sideways; below it only a table's own container may. */
const NO_SIDEWAYS_SCROLL_FROM_PX = 1024;
/**
 * How long a page may take to show its main content before the crawl calls it missing. The 3 s budget of every page is
 * a speed target and is measured by `npm run bench -- --only pages` with the machine to itself; the crawl shares both
 * cores with the rest of CI, so it records each page's time (time-to-content-ms.json) without judging it.
 */
const CONTENT_WAIT_MS = 15_000;
const CRASH_TEXT = 'Sorry.. there was an error';
/** Pages every role reaches from the user menu rather than the sidebar. */
const ACCOUNT_TARGETS: readonly CrawlTarget[] = [
  { name: 'profile settings', path: '/profile-settings', opening: { kind: 'page' }, title: 'Profile Management and Security Settings' },
];
const TITLE_SUFFIX = ' | Opsdeck';
/** An address no route claims: the crawl passes through its not-found page between two pages it opens in the app. */
const BETWEEN_PAGES = '/crawl-between-pages';
const SCREENSHOTS_ON_REQUEST = process.env.E2E_SCREENSHOTS === 'all';
/**
 * The role whose crawl also runs axe (#36) on every page it opens: one that opens every route but a sample of
 * entities, since pages of one kind render alike and axe takes about half a second a run. The first role (admin) runs
 * it on the sidebar pages too, which include the admin-only ones. Light at the desktop width, dark on the phone.
 */
const AXE_ROLE_INDEX = 1;
const ADMIN_ROLE_INDEX = 0;
const AXE_RUNS = [
  { scheme: 'light', viewport: { width: 1440, height: 900 } },
  { scheme: 'dark', viewport: { width: 390, height: 844 } },
] as const;

function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Waits until the page (or the dialog it opens) shows its heading with nothing in it still loading. */
async function waitForContent(page: Page, kind: 'page' | 'modal', timeout: number): Promise<boolean> {
  try {
    await page.waitForFunction(
      (dialog) => {
        const root = dialog ? document.querySelector('[role="dialog"]') : document.getElementById('main');
        if (root === null) return false;
        const heading = root.querySelector(dialog ? 'h2' : 'h1');
        // A heading the crawl marked on the page it left is not the next page's.
        if (heading === null || heading.getBoundingClientRect().height === 0 || heading.hasAttribute('data-crawl-left')) return false;
        return root.querySelector('[aria-busy="true"]') === null;
      },
      kind === 'modal',
      { timeout },
    );
    return true;
  } catch {
    return false;
  }
}

/** Moves the web app to `address` through its router, as a click on a link does, without loading the page again. */
async function navigateInApp(page: Page, address: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, address);
}

/**
 * Opens `address` in the running app. Its page is first left for the not-found page, whose heading is then marked, so
 * the wait for content cannot take the previous page's heading for the next one's when both are the same component
 * (two entities of one kind) and React keeps its element.
 */
async function openInApp(page: Page, address: string): Promise<void> {
  await navigateInApp(page, BETWEEN_PAGES);
  await page.waitForFunction(() => {
    const heading = document.querySelector('#main h1');
    if (heading === null || heading.textContent !== 'Page not found') return false;
    heading.setAttribute('data-crawl-left', '');
    return true;
  });
  await navigateInApp(page, address);
}

async function settleLayout(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** How far the document and the shell's scrolling `main` reach past their visible width. */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const scrollers = [document.documentElement, document.getElementById('main')].filter((element) => element !== null);
    return Math.max(...scrollers.map((element) => element.scrollWidth - element.clientWidth));
  });
}

/**
 * Controls of the page or its dialog that sit past the window's left or right edge, where no sideways scroll of theirs
 * reaches them: a row that overflows at its start (a right-aligned footer on a phone) leaves them out of reach without
 * the page scrolling sideways.
 */
async function controlsOutOfReach(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const inSidewaysScroller = (element: Element): boolean => {
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        const { overflowX } = getComputedStyle(parent);
        if ((overflowX === 'auto' || overflowX === 'scroll') && parent.scrollWidth > parent.clientWidth) return true;
      }
      return false;
    };
    const controls = document.querySelectorAll('#main a, #main button, #main input, #main select, [role="dialog"] a, [role="dialog"] button, [role="dialog"] input');
    return Array.from(controls).flatMap((control) => {
      const box = control.getBoundingClientRect();
      const style = getComputedStyle(control);
      // Not a control anyone reaches: hidden, or a form's shadow input (Radix's switch keeps one beside its button).
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.pointerEvents === 'none' || control.closest('[aria-hidden="true"]') !== null) return [];
      if ((box.left >= -1 && box.right <= width + 1) || inSidewaysScroller(control)) return [];
      const label = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 40);
      return [`${control.tagName.toLowerCase()} '${label}' at ${Math.round(box.left)}..${Math.round(box.right)} px`];
    });
  });
}

function contentKind(opening: CrawlOpening): 'page' | 'modal' {
  return opening.kind === 'modal' ? 'modal' : 'page';
}

// The roles' crawls share nothing but the server and only read: each may take a worker of its own, so the longest spec
// file is not also the one that decides when the run ends.
test.describe.configure({ mode: 'parallel' });

for (const [roleIndex, role] of ROLES.entries()) {
  test.describe(`smoke crawl as ${role}`, () => {
    test.use({ storageState: storageStateFor(role) });

    test(`${role}: every navigation page and demo entity renders without errors, titled and without sideways scroll at 390, 1024 and 1440 px`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(600_000);
      // One stuck page must not use up the whole crawl's time: it is reported and the crawl goes on.
      page.setDefaultTimeout(CONTENT_WAIT_MS);
      // A readable place for people to look at every page at every width: test-results/e2e/<run>/smoke-crawl/<role>/.
      const screenshots = path.join(testInfo.project.outputDir, 'smoke-crawl', role);
      // Three screenshots per page are a large share of the crawl's time, so a run keeps those of its failures and takes
      // all of them only when a person asks to look (E2E_SCREENSHOTS=all), for the first role, which opens every entity;
      // every check still runs at every width either way.
      const keepsScreenshots = SCREENSHOTS_ON_REQUEST && roleIndex === 0;
      const shoot = (file: string, failure = false) =>
        keepsScreenshots || failure ? page.screenshot({ path: path.join(screenshots, file), animations: 'disabled' }) : Promise.resolve();
      const timings: Record<string, number> = {};
      const problems: string[] = [];
      const minorFindings: string[] = [];
      let current = 'start';
      page.on('pageerror', (error) => problems.push(`${current}: uncaught ${error.name}: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${current}: console error: ${message.text()}`);
      });
      page.on('response', (response) => {
        if (response.status() >= 500) problems.push(`${current}: ${response.status()} from ${response.request().method()} ${response.url()}`);
      });

      const navigation = await loadNavigationRoutes();
      const areas = [...navigation.primary, ...navigation.settings];
      const discovered = await discoverDetailTargets(page.request, areas, roleIndex === 0 ? 'every' : 'sample');
      problems.push(...discovered.problems);
      const targets: CrawlTarget[] = [...areas.map(navigationTarget), ...discovered.targets, ...ACCOUNT_TARGETS];
      const settingsPages = new Set(navigation.settings.map((route) => route.path).filter((address) => address.startsWith('/settings/')));
      expect(discovered.targets.length, 'the demo data offers entities to open').toBeGreaterThan(0);

      for (const [index, target] of targets.entries()) {
        current = target.name;
        // Each address is loaded at one of the widths in turn (shifted per role, so every page is also loaded fresh on a
        // phone by some role) and then looked at in all three.
        const loadViewport = VIEWPORTS[(index + roleIndex) % VIEWPORTS.length] ?? VIEWPORTS[2];
        await page.setViewportSize(loadViewport);
        const started = Date.now();
        // Every address is loaded fresh by one role (rotating, like the width) and opened inside the running app by the
        // others, as a person reaches it; a fresh load costs the whole app's start on top of the page.
        if (index === 0 || (index + roleIndex) % ROLES.length === 0) await page.goto(target.path);
        else await openInApp(page, target.path);
        if (!(await waitForContent(page, contentKind(target.opening), CONTENT_WAIT_MS))) {
          problems.push(`${target.name}: no main content within ${CONTENT_WAIT_MS} ms at ${loadViewport.width} px`);
          await shoot(path.join('failures', `${slug(target.name)}.png`), true);
          continue;
        }
        timings[target.name] = Date.now() - started;

        if (target.opening.kind === 'row') {
          const row = page.getByRole('row').filter({ hasText: target.opening.rowText }).first();
          // Only roles that may edit the entity get a clickable row; for the others the row itself is the detail.
          if ((await row.getAttribute('tabindex')) !== null) {
            const clicked = Date.now();
            await row.click();
            if (!(await waitForContent(page, 'modal', CONTENT_WAIT_MS))) problems.push(`${target.name}: a click on its row opened no dialog within ${Date.now() - clicked} ms`);
          } else if (!(await row.isVisible())) {
            problems.push(`${target.name}: no row shows it`);
          }
        }

        if ((await page.getByText(CRASH_TEXT).count()) > 0) problems.push(`${target.name}: shows '${CRASH_TEXT}'`);

        const title = await page.title();
        const name = title.endsWith(TITLE_SUFFIX) ? title.slice(0, -TITLE_SUFFIX.length) : null;
        const offered = target.navigation ? (await page.locator(`nav[aria-label="Main"] a[href="${target.navigation.path}"]`).count()) > 0 : true;
        const expected = target.title;
        const titled = name !== null && (typeof expected === 'string' ? name === expected || (!offered && name === 'Unauthorized') : expected.test(name));
        if (!titled) problems.push(`${target.name}: the title is '${title}', not '${String(expected)}${TITLE_SUFFIX}'`);
        // Every settings page says where in Settings it is (#34 item 22); a row's dialog covers its page, so the pages alone.
        if (target.navigation !== undefined && settingsPages.has(target.path) && name !== 'Unauthorized') {
          const trail = page.getByRole('navigation', { name: 'Breadcrumb' }).first();
          const text = (await trail.count()) === 0 ? '' : await trail.innerText();
          if (!text.startsWith('Settings')) problems.push(`${target.name}: no 'Settings ›' breadcrumb`);
        }

        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          await settleLayout(page);
          if (viewport.width >= NO_SIDEWAYS_SCROLL_FROM_PX) {
            const overflow = await sidewaysOverflow(page);
            if (overflow > 1) problems.push(`${target.name}: the page scrolls sideways by ${overflow} px at ${viewport.width} px`);
          }
          for (const control of await controlsOutOfReach(page)) problems.push(`${target.name}: ${control} is out of reach at ${viewport.width} px`);
          await shoot(path.join(`${viewport.width}px`, `${String(index).padStart(2, '0')}-${slug(target.name)}.png`));
        }

        if (roleIndex === AXE_ROLE_INDEX || (roleIndex === ADMIN_ROLE_INDEX && target.navigation !== undefined)) {
          for (const run of AXE_RUNS) {
            await page.emulateMedia({ colorScheme: run.scheme });
            await page.setViewportSize(run.viewport);
            await settleLayout(page);
            const where = `${target.name} (${run.scheme}, ${run.viewport.width} px)`;
            const describe = (finding: AxeFinding) => `${where}: axe ${finding.impact ?? 'unrated'} ${finding.rule} on ${finding.target}: ${finding.help}`;
            const findings = await axeFindings(page);
            problems.push(...findings.filter((finding) => finding.impact !== null && BLOCKING_IMPACTS.has(finding.impact)).map(describe));
            minorFindings.push(...findings.filter((finding) => finding.impact === null || !BLOCKING_IMPACTS.has(finding.impact)).map(describe));
          }
          await page.emulateMedia({ colorScheme: 'light' });
        }
      }

      // The drawer that replaces the sidebar on a phone, open over the first page.
      current = 'navigation drawer';
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto(areas[0]?.path ?? '/');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await shoot(path.join('390px', 'navigation-drawer.png'));

      testInfo.annotations.push({ type: 'screenshots', description: screenshots });
      mkdirSync(screenshots, { recursive: true });
      writeFileSync(path.join(screenshots, 'time-to-content-ms.json'), `${JSON.stringify(timings, null, 2)}\n`);
      if (roleIndex === AXE_ROLE_INDEX || roleIndex === ADMIN_ROLE_INDEX) {
        writeFileSync(path.join(screenshots, 'axe-moderate-and-minor.txt'), minorFindings.join('\n'));
        testInfo.annotations.push({ type: 'axe moderate and minor findings', description: String(minorFindings.length) });
      }
      expect(problems, `problems found while crawling as ${role}`).toEqual([]);
    });
  });
}
