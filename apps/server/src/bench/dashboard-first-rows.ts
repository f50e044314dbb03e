import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export interface DashboardBenchResult {
  runs: number;
  p50Ms: number;
  maxMs: number;
}

/**
 * Time from navigating to /health until the checks table shows its first data row, in Debian's Chromium, with a
 * fresh page (no cached queries) each run. Needs the built web app served by the server under test.
 */
export async function benchDashboardFirstRows(options: { url: string; cookie: string; runs?: number }): Promise<DashboardBenchResult | null> {
  if (!existsSync(CHROMIUM)) return null;
  const runs = options.runs ?? 5;
  const [name = '', ...rest] = options.cookie.split('=');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name, value: rest.join('='), url: options.url }]);
    const timings: number[] = [];
    for (let i = 0; i <= runs; i += 1) {
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${options.url}/health`);
      // Row 0 is the header row; row 1 is the first check.
      await page.getByRole('table', { name: 'Health checks' }).getByRole('row').nth(1).waitFor({ timeout: 30_000 });
      const elapsed = performance.now() - started;
      await page.close();
      // The first visit warms the browser's HTTP cache for the app's assets, as a returning visitor's would be.
      if (i > 0) timings.push(elapsed);
    }
    timings.sort((a, b) => a - b);
    return { runs, p50Ms: timings[Math.floor(timings.length / 2)] ?? 0, maxMs: timings.at(-1) ?? 0 };
  } finally {
    await browser.close();
  }
}
