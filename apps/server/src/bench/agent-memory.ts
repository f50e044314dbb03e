import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app';
import { hashToken } from '../auth/shared/session-token';
import { openDatabase } from '../db/database';
import { newAgentToken } from '../modules/agents';
import { loadConfig } from '../platform/config';
import { freePort } from './server-process';
import { compiledServerEntry } from './startup';

const CHECKS = 1000;
const CHECK_SCHEDULE = '@every 10s';
const IDLE_GOAL_BYTES = 150 * 1024 * 1024;
const BUSY_GOAL_BYTES = 250 * 1024 * 1024;
/** Long enough after the agent's first heartbeat for its start-up work to be over. */
const SETTLE_MS = 10_000;
const BUSY_WINDOW_MS = 20_000;
const START_TIMEOUT_MS = 180_000;

export type AgentMemoryResult =
  | { skipped: string }
  | { skipped: null; idleFreshBytes: number; idleRestartBytes: number; busyBytes: number; busyRunsPerSecond: number };

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number, exited: () => string | null): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await probe())) {
    const output = exited();
    if (output !== null) throw new Error(`the agent exited while waiting for ${what}:\n${output}`);
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A loopback HTTP listener the agent's checks call, counting the requests. */
async function countingListener(): Promise<{ server: Server; url: string; count: () => number }> {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests += 1;
    response.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, count: () => requests };
}

/**
 * Resident memory of the compiled `opsdeck agent`: idle on a new data folder and again after a restart on it, then
 * while it runs 1,000 HTTP checks against a loopback listener. Upstream runs in this process, so the bench can assign
 * the checks while both run; only the agent's process is measured.
 */
export async function benchAgentMemory(): Promise<AgentMemoryResult> {
  const entry = compiledServerEntry();
  if (!existsSync(entry)) return { skipped: `needs the compiled server (${entry}): npm run build` };
  if (!existsSync('/proc/self/status')) return { skipped: 'reads resident memory from /proc, which this system lacks' };
  const upstreamDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-agent-upstream-'));
  const agentDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-agent-local-'));
  const db = await openDatabase({ dataDir: upstreamDir, statementTimeoutMs: 0 });
  const listener = await countingListener();
  let agent: { child: ChildProcess; output: () => string; exited: Promise<unknown> } | null = null;
  try {
    const port = await freePort();
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'api' }, { dataDir: upstreamDir, databaseUrl: undefined, port, host: '127.0.0.1' });
    const upstream = await createApp(config, { db, logger: false, listens: true });
    await upstream.app.listen({ port, host: '127.0.0.1' });
    try {
      const token = newAgentToken();
      const inserted = await db.pool.query<{ id: string }>(`insert into agents (name, access_token_hash) values ('bench-memory', $1) returning id`, [hashToken(token)]);
      const agentId = inserted.rows[0]?.id ?? '';
      const lastSeen = async (): Promise<number> => {
        const row = await db.pool.query<{ seen: number | null }>('select extract(epoch from last_seen)::float8 as seen from agents where id = $1', [agentId]);
        return row.rows[0]?.seen ?? 0;
      };
      const start = (): typeof agent => {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          DATA_DIR: agentDir,
          LOG_LEVEL: 'warn',
          OPSDECK_UPSTREAM: `http://127.0.0.1:${port}`,
          OPSDECK_AGENT_TOKEN: token,
          OPSDECK_AGENT_PULL_MS: '1000',
          OPSDECK_AGENT_HEARTBEAT_MS: '1000',
        };
        delete env.DATABASE_URL;
        delete env.OPSDECK_SECRET_KEY;
        const child = spawn(process.execPath, [entry, 'agent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        return { child, output: () => output, exited: once(child, 'exit') };
      };
      const running = async (): Promise<{ child: ChildProcess; output: () => string; exited: Promise<unknown> }> => {
        const before = await lastSeen();
        const started = start();
        if (started === null) throw new Error('the agent did not start');
        const exited = (): string | null => (started.child.exitCode === null && started.child.signalCode === null ? null : started.output());
        await until('the first heartbeat', async () => (await lastSeen()) > before, START_TIMEOUT_MS, exited);
        await sleep(SETTLE_MS);
        return started;
      };
      const stop = async (stopping: { child: ChildProcess; exited: Promise<unknown> }): Promise<void> => {
        stopping.child.kill('SIGTERM');
        await stopping.exited;
      };
      const pidOf = (child: ChildProcess): number => {
        if (child.pid === undefined) throw new Error('the agent has no process id');
        return child.pid;
      };

      agent = await running();
      const idleFreshBytes = residentBytes(pidOf(agent.child));
      await stop(agent);
      agent = await running();
      const idleRestartBytes = residentBytes(pidOf(agent.child));

      const checks = Array.from({ length: CHECKS }, (_, i) => ({ name: `loopback-${i}`, url: `${listener.url}/${i}`, responseCodes: [200] }));
      await db.pool.query(`insert into canaries (name, agent_id, schedule, spec) values ('bench-memory-checks', $1, $2, $3)`, [agentId, CHECK_SCHEDULE, JSON.stringify({ http: checks })]);
      const current = agent;
      const exited = (): string | null => (current.child.exitCode === null && current.child.signalCode === null ? null : current.output());
      await until(`every one of the ${CHECKS} checks to run once`, () => listener.count() >= CHECKS, START_TIMEOUT_MS, exited);
      const windowStart = listener.count();
      const windowStarted = performance.now();
      let busyBytes = 0;
      while (performance.now() - windowStarted < BUSY_WINDOW_MS) {
        busyBytes = Math.max(busyBytes, residentBytes(pidOf(current.child)));
        await sleep(500);
      }
      const busyRunsPerSecond = (listener.count() - windowStart) / ((performance.now() - windowStarted) / 1000);
      await stop(current);
      agent = null;
      return { skipped: null, idleFreshBytes, idleRestartBytes, busyBytes, busyRunsPerSecond };
    } finally {
      await upstream.close();
    }
  } finally {
    if (agent !== null && agent.child.exitCode === null && agent.child.signalCode === null) {
      agent.child.kill('SIGKILL');
      await agent.exited;
    }
    listener.server.close();
    await db.close();
    rmSync(upstreamDir, { recursive: true, force: true });
    rmSync(agentDir, { recursive: true, force: true });
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The section `npm run bench -- --only agent-memory` prints. */
export async function reportAgentMemory(heading: (title: string) => void): Promise<void> {
  heading('Agent memory');
  const figures = await benchAgentMemory();
  if (figures.skipped !== null) {
    console.log(`Agent memory: skipped (${figures.skipped}).`);
    return;
  }
  const verdict = (bytes: number, goal: number): string => `(goal < ${mb(goal)}: ${bytes < goal ? 'met' : 'NOT met'})`;
  console.log(`${'agent RSS, idle, new data folder'.padEnd(44)} ${mb(figures.idleFreshBytes).padStart(8)}   ${verdict(figures.idleFreshBytes, IDLE_GOAL_BYTES)}`);
  console.log(`${'agent RSS, idle, after a restart'.padEnd(44)} ${mb(figures.idleRestartBytes).padStart(8)}   ${verdict(figures.idleRestartBytes, IDLE_GOAL_BYTES)}`);
  console.log(
    `${`agent RSS, running ${CHECKS} HTTP checks ${CHECK_SCHEDULE}`.padEnd(44)} ${mb(figures.busyBytes).padStart(8)}   ${verdict(figures.busyBytes, BUSY_GOAL_BYTES)}; ` +
      `${figures.busyRunsPerSecond.toFixed(0)} runs/s during the ${BUSY_WINDOW_MS / 1000} s window`,
  );
}
