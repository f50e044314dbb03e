import { defineConfig } from '@playwright/test';
import { RUN_ID } from './support/roles';

const baseURL = process.env.E2E_BASE_URL;
if (baseURL === undefined || baseURL === '') {
  throw new Error('E2E_BASE_URL is not set: run the specs with `npm run test:e2e`, which starts a seeded server for them');
}

const jsonReport = process.env.E2E_JSON_REPORT;

/**
 * Specs that change what the others see, run one at a time after all of them: feature flags (a `.disable` flag takes
 * a sidebar entry away from everybody), self-service registration switched on for the whole server, and the deletion
 * of a demo agent with its checks, which the health, agents and crawl specs list.
 */
const GLOBAL_STATE_SPECS = [/specs\/feature-flags\.spec\.ts$/, /specs\/identity-flows\.spec\.ts$/, /specs\/agents\.spec\.ts$/];

// `npx playwright install` cannot download browsers here, so the specs drive Debian's Chromium. The flags keep it
// from reaching for Google's services, which this machine's closed network refuses.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export default defineConfig({
  testDir: '.',
  outputDir: `../test-results/e2e/${RUN_ID}`,
  // Two workers, one per core; the crawl's roles are tests of their own, so they spread over both. A spec file runs
  // whole and in order; specs that change what every other spec sees run afterwards, one at a time (the 'global state'
  // project below).
  workers: 2,
  fullyParallel: false,
  // No retries: a test that passes only on its second try is reported as what it is, a failure.
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: jsonReport === undefined ? [['list']] : [['list'], ['json', { outputFile: jsonReport }]],
  globalSetup: './support/global-setup.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: { executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    // What the web client sends on every API call; the specs' own bodiless API calls need it past the CSRF check.
    extraHTTPHeaders: { 'X-Requested-With': 'XMLHttpRequest' },
    // Recording a trace (DOM snapshots at every action, a screencast) took a third of the smoke crawl's time and CPU
    // (admin's crawl 1.9-2.0 min with it, 1.2-1.3 min without, side by side), and a CI run's trace is never opened:
    // its output is what anyone sees. To debug a spec, run it with `--trace retain-on-failure`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // The global-state specs are the setup's teardown rather than a dependant of 'chromium': Playwright runs a teardown
    // once every project that depends on the setup has finished, whether it passed or not, where a dependant would be
    // skipped after a single failure and leave those specs unreported.
    { name: 'setup', testMatch: /auth\.setup\.ts$/, teardown: 'global state' },
    { name: 'chromium', testMatch: /specs\/.*\.spec\.ts$/, testIgnore: GLOBAL_STATE_SPECS, dependencies: ['setup'] },
    { name: 'global state', testMatch: GLOBAL_STATE_SPECS, workers: 1 },
  ],
});
