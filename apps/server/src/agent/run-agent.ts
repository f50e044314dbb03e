import os from 'node:os';
import { createApp, type RunningApp } from '../app';
import { openMigrated } from '../db/open-migrated';
import { loadConfig } from '../platform/config';
import { specsReply } from '../modules/agent-push/protocol';
import { Loop } from './loop';
import { installOutboxTriggers } from './outbox';
import { Pusher } from './pusher';
import { applySpecs } from './spec-puller';
import { UpstreamClient, UpstreamError } from './upstream-client';

/**
 * `opsdeck agent` (ADR 0056): the server's own code on the agent's own embedded database, with the schedulers running
 * its local specs and those upstream assigns to it, and three loops talking to upstream: the outbox pusher, the
 * heartbeat and the spec puller. No HTTP listener unless --port asks for one.
 */

export interface AgentOptions {
  upstream: string;
  token: string;
  dataDir?: string;
  port?: number;
}

export interface RunningAgent {
  running: RunningApp;
  stop(): Promise<void>;
}

/** Intervals in ms, each overridable by an environment variable so tests and small installs can shorten them. */
function interval(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number of milliseconds, got ${raw}`);
  return value;
}

/**
 * The agent database's buffer cache: its database holds specs, results on their way upstream and what it scrapes, so
 * PostgreSQL's 128MB default would mostly hold memory the agent never gives back (ADR 0079).
 */
const AGENT_SHARED_BUFFERS = '16MB';

export function agentSharedBuffers(env: NodeJS.ProcessEnv): string {
  const raw = env.OPSDECK_AGENT_SHARED_BUFFERS;
  if (raw === undefined || raw === '') return AGENT_SHARED_BUFFERS;
  if (!/^[1-9]\d*(kB|MB|GB)$/.test(raw)) throw new Error(`OPSDECK_AGENT_SHARED_BUFFERS must be a size such as 16MB or 512kB, got ${raw}`);
  return raw;
}

function readFlag(args: string[], name: string): string | undefined {
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index === -1) return undefined;
  const arg = args[index] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
}

/** Flags win over OPSDECK_UPSTREAM / OPSDECK_AGENT_TOKEN / DATA_DIR; the env form keeps the token out of `ps`. */
export function agentOptionsFrom(args: string[], env: NodeJS.ProcessEnv): AgentOptions {
  const known = new Set(['--upstream', '--token', '--data-dir', '--port']);
  for (const arg of args) {
    const name = arg.split('=')[0] ?? arg;
    if (name.startsWith('--') && !known.has(name)) throw new Error(`${name} is not an agent option (--upstream, --token, --data-dir, --port)`);
  }
  const upstream = readFlag(args, 'upstream') ?? env.OPSDECK_UPSTREAM;
  const token = readFlag(args, 'token') ?? env.OPSDECK_AGENT_TOKEN;
  if (upstream === undefined || upstream === '') throw new Error('the agent needs --upstream URL (or OPSDECK_UPSTREAM)');
  if (token === undefined || token === '') throw new Error('the agent needs --token TOKEN (or OPSDECK_AGENT_TOKEN)');
  try {
    const url = new URL(upstream);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new Error(`--upstream must be an http(s) URL, got ${upstream}`);
  }
  const dataDir = readFlag(args, 'data-dir') ?? env.DATA_DIR;
  const rawPort = readFlag(args, 'port');
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new Error(`--port needs a port number, got ${rawPort}`);
  return { upstream, token, ...(dataDir === undefined ? {} : { dataDir }), ...(port === undefined ? {} : { port }) };
}

export async function runAgent(options: AgentOptions, env: NodeJS.ProcessEnv = process.env): Promise<RunningAgent> {
  const config = loadConfig(
    { ...env, OPSDECK_ROLE: options.port === undefined ? 'worker' : 'all', OPSDECK_SEED_DEMO: 'false' },
    // Its own embedded database, never upstream's, even when the shell it starts from names one.
    { databaseUrl: undefined, ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) },
  );
  const db = await openMigrated({ dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs, sharedBuffers: agentSharedBuffers(env) });
  let running: RunningApp;
  try {
    running = await createApp(config, { listens: options.port !== undefined, db });
  } catch (error) {
    await db.close();
    throw error;
  }
  const { pool } = db;
  const log = running.app.log.child({ module: 'agent' });
  try {
    await installOutboxTriggers(pool);
  } catch (error) {
    await running.close();
    await db.close();
    throw error;
  }
  const client = new UpstreamClient(options.upstream, options.token);
  const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

  const pusher = new Pusher({
    pool,
    client,
    batchRows: interval(env, 'OPSDECK_AGENT_BATCH_ROWS', 1000),
    idleMs: interval(env, 'OPSDECK_AGENT_PUSH_IDLE_MS', 1000),
    minBackoffMs: interval(env, 'OPSDECK_AGENT_MIN_BACKOFF_MS', 1000),
    maxBackoffMs: interval(env, 'OPSDECK_AGENT_MAX_BACKOFF_MS', 30_000),
    onRefused: (batchId, rows, reason) =>
      log.error({ batchId, rows, reason }, 'upstream refused a batch as malformed; it is kept in agent_outbox (refused_at) and not sent again'),
  });
  const pushLoop = new Loop(
    () => pusher.step(),
    (error) => {
      const delay = pusher.failed();
      log.warn({ err: describe(error), retryInMs: delay }, 'push to upstream failed; results stay in the outbox');
      return delay;
    },
  );
  const heartbeatMs = interval(env, 'OPSDECK_AGENT_HEARTBEAT_MS', 20_000);
  const heartbeat = new Loop(
    async () => {
      await client.call('POST', '/api/agent/heartbeat', { hostname: os.hostname(), version: running.context.version });
      return heartbeatMs;
    },
    (error) => {
      log.warn({ err: describe(error) }, 'heartbeat failed');
      return Math.min(heartbeatMs, 5000);
    },
  );
  const pullMs = interval(env, 'OPSDECK_AGENT_PULL_MS', 30_000);
  const puller = new Loop(
    async () => {
      const specs = specsReply.parse(await client.call('GET', '/api/agent/specs'));
      const { changed } = await applySpecs(pool, specs);
      if (changed > 0) {
        log.info({ changed }, 'applied specs assigned by upstream');
        running.context.bus.publish({ name: 'canary.updated', payload: {} });
      }
      return pullMs;
    },
    (error) => {
      if (error instanceof UpstreamError && error.status === 401) log.error('upstream refused the agent token; rotate it in the agent editor');
      else log.warn({ err: describe(error) }, 'pulling specs from upstream failed');
      return Math.min(pullMs, 5000);
    },
  );
  for (const loop of [pushLoop, heartbeat, puller]) loop.start();
  if (options.port !== undefined) await running.app.listen({ port: options.port, host: config.host });
  log.info({ upstream: options.upstream, dataDir: config.dataDir }, 'agent started');

  return {
    running,
    async stop() {
      await Promise.all([pushLoop.stop(), heartbeat.stop(), puller.stop()]);
      await running.close();
      await db.close();
    },
  };
}

/** The CLI entry: runs until SIGTERM or SIGINT, then stops the loops and closes the database. */
export async function agentCommand(args: string[]): Promise<void> {
  const agent = await runAgent(agentOptionsFrom(args, process.env));
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    agent
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
