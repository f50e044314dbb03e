import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { serverPackageRoot } from '../platform/package-root';
import { CHROMIUM, CHROMIUM_ARGS, signedInContext, startBrowserBenchServer } from './catalog-browser';
import { median } from './median';

/** The budget every page of the demo has for its main content (the smoke crawl records the same figure per role). */
export const PAGE_CONTENT_GOAL_MS = 3000;
const LOADS_PER_PAGE = 3;
const CONTENT_TIMEOUT_MS = 60_000;

export interface PageFigure {
  path: string;
  label: string;
  /** The timed loads, after one left-out load that fills the browser's asset cache and the server's caches. */
  timings: number[];
  medianMs: number;
}

export interface PagesBrowserFigures {
  pages: PageFigure[];
  /** The slowest page's median. */
  worstMedianMs: number;
}

/**
 * Runs in the page before its own scripts (as text: the server's TypeScript has no DOM types) and notes, on the
 * browser's clock from the navigation's start, when the page's heading is laid out in `main` with nothing in it still
 * loading: the smoke crawl's definition of main content, without the driver's polling in the figure.
 */
const CONTENT_PROBE = `
  const done = () => {
    const main = document.getElementById('main');
    if (main === null) return false;
    const heading = main.querySelector('h1');
    if (heading === null || heading.getBoundingClientRect().height === 0) return false;
    return main.querySelector('[aria-busy="true"]') === null;
  };
  const observer = new MutationObserver(() => {
    if (!done()) return;
    document.documentElement.dataset.contentMs = String(performance.now());
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
`;

interface NavigationLine {
  label: string;
  path: string;
}

function linesOf(value: unknown): NavigationLine[] {
  if (!Array.isArray(value)) throw new Error('apps/web/src/app/navigation.ts no longer exports its navigation as lists');
  return value.map((entry: unknown) => {
    const { label, path: route } = (entry ?? {}) as { label?: unknown; path?: unknown };
    if (typeof label !== 'string' || typeof route !== 'string') throw new Error('a navigation entry has no string label and path');
    return { label, path: route };
  });
}

/**
 * The sidebar's pages, read at run time from the web app's own navigation definition (as the smoke crawl reads them),
 * so a page that ships its sidebar line is measured without anyone touching the bench.
 */
async function navigationPages(): Promise<NavigationLine[]> {
  const file = path.resolve(serverPackageRoot(import.meta.url), '..', 'web', 'src', 'app', 'navigation.ts');
  const navigation = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  return [...linesOf(navigation.primaryNavigation), ...linesOf(navigation.settingsNavigation)];
}

async function timeToContent(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: CONTENT_PROBE });
    await page.goto(url, { waitUntil: 'commit' });
    // Read through selectors: the console's CSP forbids the string evaluation waitForFunction would use.
    const marked = page.locator('html[data-content-ms]');
    await marked.waitFor({ state: 'attached', timeout: CONTENT_TIMEOUT_MS });
    return Number(await marked.getAttribute('data-content-ms'));
  } finally {
    await page.close();
  }
}

/**
 * Time to main content of every sidebar page, in Chromium, signed in as the demo admin through /login, against the
 * compiled server started as `npm start` starts it on a fresh data folder with the demo data. Each load opens a fresh
 * page (no cached queries in the app), one page at a time, so the figure is the page's own and not the machine's load.
 */
export async function benchPagesBrowser(): Promise<PagesBrowserFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-pages-'));
  const server = await startBrowserBenchServer({ dataDir, seedDemo: true });
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await signedInContext(browser, server.url);
      const pages: PageFigure[] = [];
      for (const line of await navigationPages()) {
        const timings: number[] = [];
        for (let load = 0; load <= LOADS_PER_PAGE; load += 1) {
          const elapsed = await timeToContent(context, `${server.url}${line.path}`);
          if (load > 0) timings.push(elapsed);
        }
        pages.push({ path: line.path, label: line.label, timings, medianMs: median(timings) });
      }
      return { pages, worstMedianMs: Math.max(0, ...pages.map((page) => page.medianMs)) };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
