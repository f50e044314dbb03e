import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { FINAL_PLAYBOOK_RUN_STATUSES, type PlaybookRun, type PlaybookRunResponse, type PlaybookRunStatus, type PlaybookSpec } from '@opsdeck/shared';
import { hashToken, newSessionToken, SESSION_COOKIE } from '../auth/shared/session-token';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { benchServerEnv, freePort, waitUntilHealthy } from './server-process';
import { compiledServerEntry } from './startup';

const BENCH_PLAYBOOK = 'bench-notify';
const BENCH_CONNECTION = 'bench-notify';
const START_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 30_000;
/**
 * The figures come from the times the server stamps, so polling only finds out when a run has ended: polling slowly
 * keeps the bench's own reads from competing with the workers for the database.
 */
const POLL_MS = 50;

export interface PlaybookBenchTarget {
  /** Base URL of a server whose playbook workers run, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Session cookie header of someone with write on playbook_runs. */
  cookie: string;
  /** A playbook of one cheap action that runs without a target. */
  playbookId: string;
}

export interface PlaybookBenchOptions extends PlaybookBenchTarget {
  /** Runs requested one after another for the latency figures. */
  latencyRuns?: number;
  /** Runs requested at once for the throughput figure. */
  throughputRuns?: number;
  /** Requests in flight at a time while the throughput runs are requested. */
  concurrency?: number;
}

export interface PlaybookLatencyFigures {
  runs: number;
  /** From sending POST /api/playbook/run to the first action's start_time, in ms. */
  p50: number;
  p95: number;
  max: number;
}

export interface PlaybookThroughputFigures {
  runs: number;
  concurrency: number;
  /** From the first request to the last run's end_time, in seconds. */
  seconds: number;
  perSecond: number;
  /** Runs that did not end completed. */
  notCompleted: number;
}

export interface PlaybookBenchResult {
  latency: PlaybookLatencyFigures;
  throughput: PlaybookThroughputFigures;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isFinal(status: PlaybookRunStatus): boolean {
  return FINAL_PLAYBOOK_RUN_STATUSES.includes(status);
}

async function requestRun(target: PlaybookBenchTarget): Promise<string> {
  const response = await fetch(`${target.url}/api/playbook/run`, {
    method: 'POST',
    headers: { cookie: target.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ id: target.playbookId, params: {} }),
  });
  if (response.status !== 201) throw new Error(`POST /api/playbook/run answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as PlaybookRunResponse).run_id;
}

async function getRun(target: PlaybookBenchTarget, id: string): Promise<PlaybookRun> {
  const response = await fetch(`${target.url}/api/playbook/run/${id}`, { headers: { cookie: target.cookie } });
  if (!response.ok) throw new Error(`GET /api/playbook/run/${id} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as PlaybookRun;
}

/**
 * One run at a time, so that each measures how soon a worker picks a request up and starts its first action rather
 * than a queue. The start is the time the server stamped on the action (one clock: the same machine).
 */
async function measureLatency(target: PlaybookBenchTarget, runs: number): Promise<PlaybookLatencyFigures> {
  const timings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const sentAt = Date.now();
    const id = await requestRun(target);
    const deadline = performance.now() + RUN_TIMEOUT_MS;
    let run = await getRun(target, id);
    while (!isFinal(run.status)) {
      if (performance.now() > deadline) throw new Error(`run ${id} was still ${run.status} after ${RUN_TIMEOUT_MS / 1000} s`);
      await sleep(POLL_MS);
      run = await getRun(target, id);
    }
    const started = run.actions[0]?.start_time;
    if (started === undefined || started === null) throw new Error(`run ${id} ended ${run.status} without starting its action: ${run.error ?? 'no error'}`);
    timings.push(Date.parse(started) - sentAt);
  }
  const sorted = [...timings].sort((a, b) => a - b);
  return { runs, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) ?? 0 };
}

interface RunRow {
  status: PlaybookRunStatus;
  end_time: string | null;
}

/** The bench playbook's runs requested since `since`, through the data API as the runs list reads them. */
async function runsSince(target: PlaybookBenchTarget, since: string, limit: number): Promise<RunRow[]> {
  const query = new URLSearchParams({
    select: 'status,end_time',
    playbook_id: `eq.${target.playbookId}`,
    created_at: `gte.${since}`,
    limit: String(limit),
  });
  const response = await fetch(`${target.url}/api/db/playbook_runs?${query.toString()}`, { headers: { cookie: target.cookie } });
  if (!response.ok) throw new Error(`GET /api/db/playbook_runs answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as RunRow[];
}

/** Many runs requested at once: how many the workers finish per second when they always have one to claim. */
async function measureThroughput(target: PlaybookBenchTarget, runs: number, concurrency: number): Promise<PlaybookThroughputFigures> {
  const since = new Date().toISOString();
  const startedAt = Date.now();
  let next = 0;
  const requesters = Array.from({ length: Math.min(concurrency, runs) }, async () => {
    while (next < runs) {
      next += 1;
      await requestRun(target);
    }
  });
  await Promise.all(requesters);
  const deadline = performance.now() + RUN_TIMEOUT_MS + runs * 1000;
  let rows = await runsSince(target, since, runs);
  while (rows.length < runs || rows.some((row) => !isFinal(row.status))) {
    if (performance.now() > deadline) throw new Error(`${rows.filter((row) => !isFinal(row.status)).length} of ${runs} runs had not ended in time`);
    await sleep(POLL_MS);
    rows = await runsSince(target, since, runs);
  }
  const lastEnd = Math.max(...rows.map((row) => (row.end_time === null ? startedAt : Date.parse(row.end_time))));
  const seconds = (lastEnd - startedAt) / 1000;
  return {
    runs,
    concurrency,
    seconds,
    perSecond: seconds > 0 ? runs / seconds : 0,
    notCompleted: rows.filter((row) => row.status !== 'completed').length,
  };
}

/** Both figures against a running server; the latency runs come first, on idle workers. */
export async function benchPlaybookRuns(options: PlaybookBenchOptions): Promise<PlaybookBenchResult> {
  const latency = await measureLatency(options, options.latencyRuns ?? 50);
  const throughput = await measureThroughput(options, options.throughputRuns ?? 200, options.concurrency ?? 8);
  return { latency, throughput };
}

/** The cheapest real action: a notification posted to a webhook on loopback that answers at once. */
const BENCH_SPEC: PlaybookSpec = {
  actions: [
    {
      name: 'notify',
      timeout: '10s',
      notification: { connection: `connection://default/${BENCH_CONNECTION}`, title: 'Bench run {{ run.id }}', message: 'Requested by the playbook bench' },
    },
  ],
};

/**
 * Writes what the bench needs into a database: an editor (who may request runs) with a session, a notification
 * connection and the one-action playbook. Returns the session cookie and the playbook's id.
 */
export async function preparePlaybookBench(pool: pg.Pool, hookUrl: string): Promise<{ cookie: string; playbookId: string }> {
  const person = await pool.query<{ id: string }>(
    `insert into people (name, email) values ('Bench Editor', 'bench-playbooks@opsdeck.local') returning id`,
  );
  const personId = person.rows[0]?.id;
  if (personId === undefined) throw new Error('could not create the bench editor');
  await pool.query(`insert into identities (id, traits) values ($1, '{}')`, [personId]);
  await pool.query(`insert into person_roles (person_id, role) values ($1, 'editor')`, [personId]);
  const token = newSessionToken();
  await pool.query(`insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + interval '2 hours')`, [hashToken(token), personId]);
  await pool.query(`insert into connections (name, type, url) values ($1, 'generic_webhook', $2)`, [BENCH_CONNECTION, hookUrl]);
  const playbook = await pool.query<{ id: string }>(`insert into playbooks (name, title, spec, created_by) values ($1, 'Bench notification', $2, $3) returning id`, [
    BENCH_PLAYBOOK,
    JSON.stringify(BENCH_SPEC),
    personId,
  ]);
  const playbookId = playbook.rows[0]?.id;
  if (playbookId === undefined) throw new Error('could not create the bench playbook');
  return { cookie: `${SESSION_COOKIE}=${token}`, playbookId };
}

/** The figures, or why the bench did not run. */
export type PlaybookServerBenchResult = (PlaybookBenchResult & { skipped: null }) | { skipped: string };

/**
 * The compiled server as `npm start` runs it, workers included, on a fresh embedded database of its own: the bench
 * database's thousands of checks would keep the same workers' process busy and the figures would measure them. The
 * database is prepared first, then handed to the server; the folder is removed afterwards.
 */
export async function benchPlaybooks(options: Omit<PlaybookBenchOptions, keyof PlaybookBenchTarget> = {}): Promise<PlaybookServerBenchResult> {
  const entry = compiledServerEntry();
  if (!existsSync(entry)) return { skipped: `needs the compiled server (${entry}): npm run build` };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-playbooks-'));
  const hook = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  try {
    const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
    let prepared: { cookie: string; playbookId: string };
    try {
      await migrate(db.pool);
      prepared = await preparePlaybookBench(db.pool, `http://127.0.0.1:${(hook.address() as AddressInfo).port}/bench`);
    } finally {
      await db.close();
    }
    const port = await freePort();
    const env = benchServerEnv(dataDir, port, { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', OPSDECK_ROLE: 'all' });
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--enable-source-maps', entry, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilHealthy(url, {
        hasExited: () => child.exitCode !== null || child.signalCode !== null,
        output: () => output,
        timeoutMs: START_TIMEOUT_MS,
        pollMs: 50,
      });
      return { ...(await benchPlaybookRuns({ ...options, url, ...prepared })), skipped: null };
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    await new Promise((resolve) => hook.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
