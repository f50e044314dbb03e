import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { hashPassword } from '../auth/shared/passwords';
import { serverPackageRoot } from '../platform/package-root';
import { DEMO_PASSWORD } from '../seed/demo';
import { freePort, waitUntilHealthy } from './server-process';
import { compiledServerEntry } from './startup';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const ADMIN_EMAIL = 'admin@opsdeck.local';
const START_TIMEOUT_MS = 180_000;
const HEALTH_POLL_MS = 100;

export interface CatalogBrowserResult {
  runs: number;
  /** The left-out first load: empty asset cache, and the server computing the summary rather than reusing it. */
  firstLoadMs: number;
  timings: number[];
  p50Ms: number;
  p95Ms: number;
}

/** Why the bench cannot run here, or null: it drives the compiled server and the built web app in Debian's Chromium. */
export function catalogBrowserMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing`;
  if (!existsSync(compiledServerEntry())) return 'apps/server/dist/main.js is missing: run `npm run build` first';
  if (!existsSync(path.join(webDist(), 'index.html'))) return 'apps/web/dist is missing: run `npm run build` first';
  return null;
}

/** The server's own default, or OPSDECK_WEB_DIST as the server reads it, to measure a build kept elsewhere. */
function webDist(): string {
  return process.env.OPSDECK_WEB_DIST ?? path.resolve(serverPackageRoot(import.meta.url), '..', 'web', 'dist');
}

/**
 * The scale database was seeded without the demo people (the demo seed only fills an empty database), so the demo
 * admin is added here with the demo password, once, for the browser to sign in as.
 */
export async function ensureDemoAdmin(pool: pg.Pool): Promise<void> {
  const existing = await pool.query(`select 1 from identity_credentials where $1 = any(identifiers)`, [ADMIN_EMAIL]);
  if (existing.rowCount !== 0) return;
  const found = await pool.query<{ id: string }>(`select id from people where lower(email) = $1 and deleted_at is null`, [ADMIN_EMAIL]);
  const person = found.rows[0] ?? (await pool.query<{ id: string }>(`insert into people (name, email) values ('Demo Admin', $1) returning id`, [ADMIN_EMAIL])).rows[0];
  const id = person?.id;
  if (id === undefined) throw new Error('could not create the demo admin');
  await pool.query(`insert into identities (id, traits) values ($1, $2) on conflict (id) do nothing`, [
    id,
    JSON.stringify({ email: ADMIN_EMAIL, name: { first: 'Demo', last: 'Admin' } }),
  ]);
  await pool.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
    id,
    [ADMIN_EMAIL],
    JSON.stringify({ hashed_password: await hashPassword(DEMO_PASSWORD) }),
  ]);
  await pool.query(`insert into person_roles (person_id, role) values ($1, 'admin') on conflict do nothing`, [id]);
}

/**
 * Runs in the page before its own scripts (as text: the server's TypeScript has no DOM types) and notes, on the
 * browser's clock from the navigation's start, when the summary's first group row enters the DOM. The driver's
 * polling and the load event would otherwise pad the figure by a few hundred milliseconds on this machine.
 */
const FIRST_ROW_PROBE = `
  const observer = new MutationObserver(() => {
    if (document.querySelector('table[aria-label="Catalog summary"] tbody tr[data-index]') === null) return;
    document.documentElement.dataset.firstRowMs = String(performance.now());
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
`;

export interface BrowserBenchServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The compiled server as `npm start` runs it, serving the built web app, on a data folder (and, when given, a
 * PostgreSQL database), without demo data unless `seedDemo`; `unset` names variables of this process it must not inherit.
 */
export async function startBrowserBenchServer(options: {
  dataDir: string;
  databaseUrl?: string;
  unset?: readonly string[];
  seedDemo?: boolean;
  /** API only: no scheduler runs on the data, so what is measured is what was seeded (a scraper would mark it gone). */
  apiOnly?: boolean;
}): Promise<BrowserBenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: options.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    OPSDECK_WEB_DIST: webDist(),
    OPSDECK_SEED_DEMO: options.seedDemo === true ? 'true' : 'false',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...(options.apiOnly === true ? { OPSDECK_ROLE: 'api' } : {}),
  };
  for (const name of options.unset ?? []) Reflect.deleteProperty(env, name);
  if (options.databaseUrl === undefined) delete env.DATABASE_URL;
  else env.DATABASE_URL = options.databaseUrl;
  const child = spawn(process.execPath, ['--enable-source-maps', compiledServerEntry(), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitUntilHealthy(url, {
      hasExited: () => child.exitCode !== null || child.signalCode !== null,
      output: () => output,
      timeoutMs: START_TIMEOUT_MS,
      pollMs: HEALTH_POLL_MS,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** A 1440 × 900 browser context signed in as the demo admin through the real /login page. */
export async function signedInContext(browser: Browser, url: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const login = await context.newPage();
  await login.goto(`${url}/login`);
  await login.getByLabel('E-Mail').fill(ADMIN_EMAIL);
  await login.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  await login.waitForURL((target) => !target.pathname.startsWith('/login'), { timeout: 30_000 });
  await login.close();
  return context;
}

/**
 * Time from navigating to /catalog until the grouped summary's first row is in the page, in Chromium, signed in as the demo
 * admin through /login, against the compiled server started as `npm start` starts it on the bench database. The
 * embedded database admits one process, so the caller must have closed its own connection to it. Each run opens a
 * fresh page (no cached queries in the app); the first run is left out, since it also fills the browser's cache of
 * the app's assets. The server's summary cache is left as it is, as it would be for a returning visitor.
 */
export async function benchCatalogBrowser(options: { dataDir: string; databaseUrl?: string; runs?: number }): Promise<CatalogBrowserResult> {
  const runs = options.runs ?? 5;
  const server = await startBrowserBenchServer({ dataDir: options.dataDir, apiOnly: true, ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }) });
  const { url } = server;
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const context = await signedInContext(browser, url);
      const timings: number[] = [];
      let firstLoadMs = 0;
      for (let i = 0; i <= runs; i += 1) {
        const page = await context.newPage();
        await page.addInitScript({ content: FIRST_ROW_PROBE });
        await page.goto(`${url}/catalog`, { waitUntil: 'commit' });
        // Read through selectors: the console's CSP forbids the string evaluation waitForFunction would use.
        const marked = page.locator('html[data-first-row-ms]');
        await marked.waitFor({ state: 'attached', timeout: 60_000 });
        const elapsed = Number(await marked.getAttribute('data-first-row-ms'));
        await page.close();
        if (i > 0) timings.push(elapsed);
        else firstLoadMs = elapsed;
      }
      const sorted = [...timings].sort((a, b) => a - b);
      const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
      return { runs, firstLoadMs, timings, p50Ms: at(0.5), p95Ms: at(0.95) };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}
