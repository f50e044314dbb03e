import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Role } from '@opsdeck/shared';
import { createApp, type RunningApp } from '../src/app';
import { loadConfig } from '../src/platform/config';
import { openDatabase, type Database } from '../src/db/database';
import { TEST_SECRET_KEY } from './global-setup';
import { hashToken, newSessionToken, SESSION_COOKIE, SESSION_TTL_MS } from '../src/auth/shared/session-token';

export interface TestServer {
  url: string;
  running: RunningApp;
  pool: pg.Pool;
  /** A session cookie header for the seeded demo user of that role. */
  cookieFor(role: Role): Promise<string>;
  /** One JSON call as the holder of `cookie`; the body, when given, is sent as JSON. */
  call(method: string, url: string, cookie: string, body?: unknown, headers?: Record<string, string>): Promise<JsonReply>;
  close(): Promise<void>;
}

export interface JsonReply {
  status: number;
  text: string;
  /** The parsed body; {} for an empty one. */
  json: Record<string, unknown>;
  headers: Headers;
}

const TEMPLATE_DB = 'opsdeck_template';
/**
 * The suites' statement timeout, four times the server's 15 s default: CI runs them beside the browsers of the e2e specs
 * on two cores (load about 11), where the refresh of a 5,000-component tree, 1.4 s on a quiet machine, was cancelled
 * after 17 s. It still ends a runaway statement within a test's own time limit; how fast statements are is the
 * benchmarks' to judge (npm run bench), not a timeout's on a shared machine.
 */
const SUITE_STATEMENT_TIMEOUT_MS = 60_000;

export async function cloneDatabase(): Promise<{ db: Database; dispose(): Promise<void> }> {
  if (inject('dbMode') === 'pglite') {
    // The folder holds only the lock and what a suite writes beside its database; the database is in memory.
    const dir = mkdtempSync(path.join(inject('testRoot'), 'suite-'));
    const db = await openDatabase({ dataDir: dir, memoryFrom: inject('templateTarball'), statementTimeoutMs: SUITE_STATEMENT_TIMEOUT_MS });
    return { db, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `opsdeck_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '.tmp', statementTimeoutMs: SUITE_STATEMENT_TIMEOUT_MS });
  return {
    db,
    dispose: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestServerOptions {
  /** Run the background workers (schedulers, event-queue consumers) too, as the `all` role does. */
  workers?: boolean;
  /** Extra environment for this server's configuration (OPSDECK_SMTP_URL, OPSDECK_OIDC_*…). */
  env?: Readonly<Record<string, string>>;
  /** Receives the server's log lines (JSON, at the level `env.LOG_LEVEL` sets) instead of dropping them. */
  logStream?: { write(line: string): void };
}

/** Starts the real server on port 0 against a fresh clone of the seeded template database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { db, dispose } = await cloneDatabase();
  const config = loadConfig(
    // Background work (schedulers, queue consumers) stays off unless a suite asks for it with OPSDECK_ROLE.
    { ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: options.workers === true ? 'all' : (process.env.OPSDECK_ROLE ?? 'api'), ...options.env },
    { dataDir: inject('testRoot'), secretKey: TEST_SECRET_KEY, databaseUrl: undefined, port: 0, host: '127.0.0.1' },
  );
  const logging = options.logStream === undefined ? { logger: false } : { logger: true, logStream: options.logStream };
  const running = await createApp(config, { db, ...logging, listens: true });
  const address = await running.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    running,
    pool: db.pool,
    async cookieFor(role) {
      const token = newSessionToken();
      await db.pool.query(
        `insert into sessions (token_hash, identity_id, expires_at)
         select $1, p.id, now() + make_interval(secs => $3::double precision / 1000) from people p where p.email = $2`,
        [hashToken(token), `${role}@opsdeck.local`, SESSION_TTL_MS],
      );
      return `${SESSION_COOKIE}=${token}`;
    },
    async call(method, url, cookie, body, headers = {}) {
      const response = await fetch(`${address}${url}`, {
        method,
        // The header the web client sends on every call, so bodiless writes pass the CSRF check as they do from the app.
        headers: { cookie, 'x-requested-with': 'XMLHttpRequest', ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, text, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), headers: response.headers };
    },
    async close() {
      await running.close();
      await db.close();
      await dispose();
    },
  };
}

/** Polls `probe` every 250 ms until it returns a value other than null, failing with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The status of a playbook run once it is neither pending nor running (a worker must be running). */
export async function waitForRunEnd(server: Pick<TestServer, 'pool'>, runId: string, timeoutMs = 30_000): Promise<string> {
  return waitFor(
    `playbook run ${runId} to end`,
    async () => {
      const status = (await server.pool.query<{ status: string }>('select status from playbook_runs where id = $1', [runId])).rows[0]?.status;
      return status === undefined || status === 'pending' || status === 'running' ? null : status;
    },
    timeoutMs,
  );
}
