import { test, expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { loadNavigationRoutes, type NavigationRoute } from '../support/navigation-routes';
import { storageStateFor } from '../support/roles';

type Theme = 'light' | 'dark';

const THEMES: readonly Theme[] = ['light', 'dark'];
/** One width keeps the spec short; the smoke crawl covers the other widths (in the light theme). */
const VIEWPORT = { width: 1440, height: 900 };
const THEME_KEY = 'opsdeck.theme';
/** WCAG AA for normal-size text. */
const MIN_TEXT_CONTRAST = 4.5;
const CONTENT_WAIT_MS = 15_000;

/** One text sample of a page: what it is, its contrast against what is painted behind it, and the two colours. */
interface ContrastSample {
  what: string;
  ratio: number;
  text: string;
  background: string;
}

/** Waits until the page shows its heading in `main` with nothing in it still loading. */
async function waitForContent(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const main = document.getElementById('main');
      const heading = main?.querySelector('h1');
      return heading !== null && heading !== undefined && heading.getBoundingClientRect().height > 0 && main?.querySelector('[aria-busy="true"]') === null;
    },
    undefined,
    { timeout: CONTENT_WAIT_MS },
  );
}

/**
 * Computed contrasts of the page's body text, its heading, table header and cell text and up to six badges, measured in
 * the browser: each colour is painted on a canvas to get its sRGB value (whatever notation the style uses: oklch,
 * color-mix…), and translucent backgrounds are stacked over their ancestors' as the browser paints them.
 */
function measureContrasts(): ContrastSample[] {
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) throw new Error('No 2D canvas to measure colours with');
  const rgba = (css: string): [number, number, number, number] => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = '#000';
    context.fillStyle = css;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top: [number, number, number, number], bottom: [number, number, number]): [number, number, number] => [
    top[0] * top[3] + bottom[0] * (1 - top[3]),
    top[1] * top[3] + bottom[1] * (1 - top[3]),
    top[2] * top[3] + bottom[2] * (1 - top[3]),
  ];
  const luminance = ([r, g, b]: [number, number, number]) => {
    const linear = (channel: number) => {
      const value = channel / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const backgroundOf = (element: Element): [number, number, number] => {
    const layers: [number, number, number, number][] = [];
    for (let node: Element | null = element; node !== null; node = node.parentElement) {
      const layer = rgba(getComputedStyle(node).backgroundColor);
      if (layer[3] === 0) continue;
      layers.push(layer);
      if (layer[3] === 1) break;
    }
    // Nothing opaque behind it: the canvas is white in the light theme; the dark theme always paints its body.
    let painted: [number, number, number] = [255, 255, 255];
    for (const layer of layers.reverse()) painted = over(layer, painted);
    return painted;
  };
  const sample = (what: string, element: Element | null | undefined): ContrastSample[] => {
    if (element === null || element === undefined || (element.textContent ?? '').trim() === '') return [];
    const style = getComputedStyle(element);
    const background = backgroundOf(element);
    const text = over(rgba(style.color), background);
    const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
    return [{ what, ratio: (lighter + 0.05) / (darker + 0.05), text: style.color, background: `rgb(${background.map(Math.round).join(' ')})` }];
  };
  /** The innermost element holding the cell's first text, whose colour is the one the reader sees. */
  const textHolder = (cell: Element): Element => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, { acceptNode: (node) => ((node.textContent ?? '').trim() === '' ? NodeFilter.FILTER_SKIP : NodeFilter.FILTER_ACCEPT) });
    return walker.nextNode()?.parentElement ?? cell;
  };
  const main = document.getElementById('main');
  const cells = Array.from(main?.querySelectorAll('tbody td') ?? []).slice(0, 6);
  const badges = Array.from(main?.querySelectorAll('[data-color]:not([role="img"]), [data-status], .ring-inset') ?? [])
    .filter((element) => element.childElementCount === 0 || element.matches('[data-color], [data-status]'))
    .filter((element) => !(element instanceof HTMLInputElement) && !(element instanceof HTMLButtonElement))
    // A badge is a word or two; a whole card coloured by its health is not one.
    .filter((element) => (element.textContent ?? '').trim().length <= 40)
    .slice(0, 6);
  return [
    ...sample('body text', document.body),
    ...sample('page heading', main?.querySelector('h1')),
    ...sample('table header', main?.querySelector('thead th')),
    ...cells.flatMap((cell, index) => sample(`table cell ${index + 1} "${(cell.textContent ?? '').trim().slice(0, 30)}"`, textHolder(cell))),
    ...badges.flatMap((badge) => sample(`badge "${(badge.textContent ?? '').trim().slice(0, 30)}"`, badge)),
  ];
}

/** A context for one theme: the system preference emulated and the same choice stored, as a person who picked it has. */
async function themedPage(browser: Browser, theme: Theme, signedIn: boolean): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: theme,
    viewport: VIEWPORT,
    storageState: signedIn ? storageStateFor('admin') : undefined,
  });
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_KEY, theme] as const);
  return context.newPage();
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ animations: 'disabled' }), contentType: 'image/png' });
}

function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

test.describe('dark mode', () => {
  let routes: NavigationRoute[] = [];

  test.beforeAll(async () => {
    const navigation = await loadNavigationRoutes();
    routes = [...navigation.primary, ...navigation.settings];
  });

  for (const theme of THEMES) {
    test(`every sidebar page and the sign-in page read well in the ${theme} theme (screenshots attached)`, async ({ browser }, testInfo) => {
      test.setTimeout(240_000);
      const problems: string[] = [];
      const check = (where: string, samples: ContrastSample[]) => {
        expect(samples.length, `${where}: text to measure`).toBeGreaterThan(0);
        for (const sample of samples) {
          if (sample.ratio < MIN_TEXT_CONTRAST) problems.push(`${where}: ${sample.what} ${sample.ratio.toFixed(2)}:1 (${sample.text} on ${sample.background})`);
        }
      };

      const page = await themedPage(browser, theme, true);
      page.setDefaultTimeout(CONTENT_WAIT_MS);
      for (const route of routes) {
        await page.goto(route.path);
        await waitForContent(page);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), `${route.path} has <html class="dark">`).toBe(theme === 'dark');
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), `${route.path} color-scheme`).toBe(theme);
        check(route.path, await page.evaluate(measureContrasts));
        await attachScreenshot(page, testInfo, `${theme}-${slug(route.label)}.png`);
      }
      await page.context().close();

      const signIn = await themedPage(browser, theme, false);
      await signIn.goto('/login');
      await expect(signIn.getByRole('heading', { name: 'Sign In to your account' })).toBeVisible();
      expect(await signIn.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
      check('/login', await signIn.evaluate(measureContrasts));
      await attachScreenshot(signIn, testInfo, `${theme}-sign-in.png`);
      await signIn.context().close();

      expect(problems, `text below ${MIN_TEXT_CONTRAST}:1 in the ${theme} theme`).toEqual([]);
    });
  }

  test('follows the system until a choice is made in the user menu, and paints the choice before the app runs', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'light', viewport: VIEWPORT, storageState: storageStateFor('admin') });
    const page = await context.newPage();
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    await page.goto(routes[0]?.path ?? '/');
    await waitForContent(page);
    expect(await isDark()).toBe(false);

    // Live: the operating system switches while the page is open.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(isDark).toBe(true);

    // A choice wins over the system and is kept.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
    expect(await isDark()).toBe(false);
    expect(await page.evaluate((key) => localStorage.getItem(key), THEME_KEY)).toBe('light');
    await page.keyboard.press('Escape');

    // From the keyboard: Dark.
    await page.getByRole('button', { name: 'User menu' }).focus();
    await page.keyboard.press('Enter');
    const dark = page.getByRole('menuitemradio', { name: 'Dark' });
    for (let step = 0; step < 10 && !(await dark.evaluate((element) => element === document.activeElement)); step += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(isDark).toBe(true);
    await page.keyboard.press('Escape');

    // Without the app's scripts at all, the stored choice still colours the page: theme-init.js runs before the first paint.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/login');
    expect(await isDark()).toBe(true);
    const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await page.evaluate(() => {
      document.documentElement.classList.remove('dark');
      return getComputedStyle(document.body).backgroundColor;
    });
    expect(body, 'the body is painted with the dark palette').not.toBe(light);
    await context.close();
  });
});
