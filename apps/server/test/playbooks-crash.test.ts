import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { openDatabase } from '../src/db/database';
import { freePort, waitUntilHealthy } from '../src/bench/server-process';
import { hashToken, newSessionToken, SESSION_COOKIE, SESSION_TTL_MS } from '../src/auth/shared/session-token';
import { PLAYBOOK_CRASH_ERROR } from '../src/modules/playbooks/playbook-worker';
import { TEMPLATE_DB, TEST_SECRET_KEY } from './global-setup';

const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');
const LEASE_MS = 2000;

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<void>;
}

/** Where the server keeps its data: a copy of the seeded template folder (PGlite) or a database cloned from it. */
interface Store {
  env: NodeJS.ProcessEnv;
  /** A connection to it, for a moment: PGlite's folder may be opened only while no server holds it. */
  withPool<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

async function cloneStore(): Promise<Store> {
  if (inject('dbMode') === 'pglite') {
    const dir = mkdtempSync(path.join(inject('testRoot'), 'crash-'));
    cpSync(inject('templateDir'), dir, { recursive: true });
    rmSync(path.join(dir, 'opsdeck.lock'), { force: true });
    return {
      env: { DATA_DIR: dir, OPSDECK_WEB_DIST: dir },
      async withPool(work) {
        const db = await openDatabase({ dataDir: dir, statementTimeoutMs: 15000 });
        try {
          return await work(db.pool);
        } finally {
          await db.close();
        }
      },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('postgresAdminUrl');
  const name = `opsdeck_crash_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE_DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Only the secret key file and the lock live here: the data is in PostgreSQL.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-crash-'));
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir, OPSDECK_WEB_DIST: dataDir },
    async withPool(work) {
      const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
      try {
        return await work(pool);
      } finally {
        await pool.end();
      }
    },
    async dispose() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startServer(store: Store): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    OPSDECK_ROLE: 'all',
    OPSDECK_SEED_DEMO: 'false',
    OPSDECK_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    OPSDECK_PLAYBOOK_LEASE_MS: String(LEASE_MS),
    ...store.env,
  };
  if (store.env.DATABASE_URL === undefined) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(url, {
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    output: () => output,
    timeoutMs: 170_000,
    pollMs: 200,
  });
  return { child, url, output: () => output, exited };
}

async function call(server: Started, cookie: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function runUntil(server: Started, cookie: string, runId: string, done: (run: PlaybookRun) => boolean, timeoutMs: number): Promise<PlaybookRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call(server, cookie, 'GET', `/api/playbook/run/${runId}`);
    const run = reply.json as unknown as PlaybookRun;
    if (reply.status === 200 && done(run)) return run;
    if (Date.now() > deadline) throw new Error(`the run did not get there in time: ${JSON.stringify(reply.json)}\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The interrupted action is an exec script, which only a server running as root may start (ADR 0042).
describe.runIf(process.getuid?.() === 0)('a server killed with SIGKILL in the middle of a playbook action', () => {
  let store: Store | null = null;
  let cookie = '';
  let playbookId = '';
  const started: Started[] = [];

  beforeAll(async () => {
    const cloned = await cloneStore();
    store = cloned;
    const token = newSessionToken();
    cookie = `${SESSION_COOKIE}=${token}`;
    playbookId = await cloned.withPool(async (pool) => {
      await pool.query(
        `insert into sessions (token_hash, identity_id, expires_at)
         select $1, p.id, now() + make_interval(secs => $2::double precision / 1000) from people p where p.email = 'admin@opsdeck.local'`,
        [hashToken(token), SESSION_TTL_MS],
      );
      const spec = {
        actions: [
          { name: 'long', exec: { script: 'echo started; sleep 60; echo finished' } },
          { name: 'report', if: 'always()', exec: { script: 'echo "the run went on"' } },
        ],
      };
      const row = await pool.query<{ id: string }>(`insert into playbooks (name, spec) values ('crash-test', $1) returning id`, [JSON.stringify(spec)]);
      return row.rows[0]?.id ?? '';
    });
  }, 60_000);

  afterAll(async () => {
    for (const server of started) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
    await store?.dispose();
  });

  it('fails the interrupted action with the crash error after a restart and finishes the run, leaving none running', { timeout: 400_000 }, async () => {
    if (store === null) throw new Error('no database');
    const first = await startServer(store);
    started.push(first);
    const requested = await call(first, cookie, 'POST', '/api/playbook/run', { id: playbookId });
    expect(requested.status, JSON.stringify(requested.json)).toBe(201);
    const runId = String(requested.json.run_id);
    await runUntil(first, cookie, runId, (run) => run.actions[0]?.status === 'running', 60_000);

    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServer(store);
    started.push(second);
    const run = await runUntil(second, cookie, runId, (current) => ['completed', 'failed', 'cancelled'].includes(current.status), 60_000);
    expect(run.status).toBe('failed');
    expect(run.actions.map((action) => [action.name, action.status]), JSON.stringify(run.actions)).toEqual([
      ['long', 'failed'],
      ['report', 'completed'],
    ]);
    expect(run.actions[0]?.error).toBe(PLAYBOOK_CRASH_ERROR);
    expect(run.actions[1]?.result?.stdout).toBe('the run went on\n');

    const running = await call(second, cookie, 'GET', '/api/db/playbook_runs?select=id&status=eq.running');
    expect(running.status).toBe(200);
    expect(running.json).toEqual([]);
    second.child.kill('SIGTERM');
    await second.exited;
    expect(second.child.exitCode).toBe(0);
  });
});
