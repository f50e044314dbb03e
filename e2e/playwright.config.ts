import { defineConfig } from '@playwright/test';
import { RUN_ID } from './support/roles';

const baseURL = process.env.E2E_BASE_URL;
if (baseURL === undefined || baseURL === '') {
  throw new Error('E2E_BASE_URL is not set: run the specs with `npm run test:e2e`, which starts a seeded server for them');
}

const jsonReport = process.env.E2E_JSON_REPORT;

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
  // One worker: the feature-flag spec switches a sidebar entry off for everybody while it runs, and two cores are
  // already shared between the server and the browser.
  workers: 1,
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
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.ts$/ },
    { name: 'chromium', testMatch: /specs\/.*\.spec\.ts$/, dependencies: ['setup'] },
  ],
});
