import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { hashToken } from '../auth/shared/session-token';
import { randomBytes, randomUUID } from 'node:crypto';
import { freePort, waitUntilHealthy } from './server-process';
import { compiledServerEntry } from './startup';

const BATCHES = 40;
const ROWS_PER_BATCH = 1000;
const CHECKS = 50;
const GOAL_PER_SECOND = 5000;
const START_TIMEOUT_MS = 180_000;

export type AgentPushBenchResult = { skipped: string } | { skipped: null; statuses: number; seconds: number; perSecond: number };

function batch(agentCheck: (i: number) => string, start: number): { batchId: string; rows: unknown[] } {
  const rows = Array.from({ length: ROWS_PER_BATCH }, (_, i) => {
    const n = start + i;
    return {
      kind: 'check_status',
      payload: { canary: 'bench-agent', type: 'http', name: agentCheck(n % CHECKS), time: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(), status: n % 7 !== 0, duration: n % 900, message: 'ok' },
    };
  });
  return { batchId: randomUUID(), rows };
}

/**
 * Check statuses ingested per second through POST /api/agent/push on the compiled server with a fresh embedded
 * database: batches of 1,000 sent one after another, as one agent's pusher does.
 */
export async function benchAgentPush(): Promise<AgentPushBenchResult> {
  const entry = compiledServerEntry();
  if (!existsSync(entry)) return { skipped: `needs the compiled server (${entry}): npm run build` };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-agent-push-'));
  try {
    const token = randomBytes(32).toString('base64url');
    const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
    try {
      await migrate(db.pool);
      await db.pool.query(`insert into agents (name, access_token_hash) values ('bench-agent', $1)`, [hashToken(token)]);
    } finally {
      await db.close();
    }
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', OPSDECK_ROLE: 'api', OPSDECK_SEED_DEMO: 'false' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [entry, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilHealthy(url, { hasExited: () => child.exitCode !== null || child.signalCode !== null, output: () => output, timeoutMs: START_TIMEOUT_MS, pollMs: 50 });
      const send = async (start: number): Promise<void> => {
        const response = await fetch(`${url}/api/agent/push`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(batch((i) => `check-${i}`, start)),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`push answered ${response.status}: ${text.slice(0, 300)}`);
      };
      // The first batch creates the canary and checks; it is not counted.
      await send(-ROWS_PER_BATCH);
      const started = performance.now();
      for (let i = 0; i < BATCHES; i += 1) await send(i * ROWS_PER_BATCH);
      const seconds = (performance.now() - started) / 1000;
      const statuses = BATCHES * ROWS_PER_BATCH;
      return { skipped: null, statuses, seconds, perSecond: statuses / seconds };
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The section `npm run bench -- --only agent-push` prints. */
export async function reportAgentPush(heading: (title: string) => void): Promise<void> {
  heading('Agent push ingestion');
  // Ingestion is CPU-bound in the embedded database, so the figure means little without how busy the machine was.
  const [load = 0] = os.loadavg();
  console.log(`Compiled server, fresh embedded database; load average before: ${load.toFixed(1)} on ${os.availableParallelism()} cores`);
  const figures = await benchAgentPush();
  if (figures.skipped !== null) {
    console.log(`Agent push: skipped (${figures.skipped}).`);
    return;
  }
  console.log(
    `${'check statuses via POST /api/agent/push'.padEnd(40)} ${figures.perSecond.toFixed(0)} statuses/s: ${figures.statuses} in ${figures.seconds.toFixed(1)} s, ` +
      `batches of ${ROWS_PER_BATCH}, one at a time   (goal ≥ ${GOAL_PER_SECOND}/s: ${figures.perSecond >= GOAL_PER_SECOND ? 'met' : 'NOT met'})`,
  );
}
