import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverPackageRoot } from '../platform/package-root';
import { freePort, waitUntilHealthy } from './server-process';

const START_TIMEOUT_MS = 120_000;
const POLL_MS = 10;
/** Long enough for the start-up work (first scheduler ticks, the demo checks' first runs) to be over. */
export const IDLE_SETTLE_MS = 5_000;

export interface StartupRun {
  /** From spawning `node` to the first 200 from /healthz. */
  healthyMs: number;
  /** Resident memory once the server has idled for IDLE_SETTLE_MS. */
  idleRssBytes: number;
  /** The most resident memory the process used until then. */
  peakRssBytes: number;
}

export interface StartupFigures {
  emptyFolder: StartupRun[];
  existingFolder: StartupRun[];
}

export function compiledServerEntry(): string {
  return path.join(serverPackageRoot(import.meta.url), 'dist', 'main.js');
}

/** Current and peak resident set size in bytes: /proc on Linux, `ps` (current only) elsewhere. */
function residentMemory(pid: number): { rss: number; peak: number } {
  if (existsSync(`/proc/${pid}/status`)) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  }
  const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
  return { rss, peak: rss };
}

/** One cold start of the compiled server, as `npm start` runs it, on the embedded database in `dataDir`. */
async function startOnce(entry: string, dataDir: string): Promise<StartupRun> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  delete env.DATABASE_URL;
  delete env.OPSDECK_SEED_DEMO;
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', entry, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntilHealthy(`http://127.0.0.1:${port}`, {
      hasExited: () => child.exitCode !== null || child.signalCode !== null,
      output: () => output,
      timeoutMs: START_TIMEOUT_MS,
      pollMs: POLL_MS,
    });
    const healthyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const pid = child.pid;
    if (pid === undefined) throw new Error('the server has no process id');
    const memory = residentMemory(pid);
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    if (code !== 0) throw new Error(`the server stopped with exit code ${String(code)}:\n${output}`);
    return { healthyMs, idleRssBytes: memory.rss, peakRssBytes: memory.peak };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/**
 * Cold starts of the compiled server on a new, empty data folder (migrations and the demo seed included) and on one
 * that already holds the demo data, each `runs` times, one after another so they do not compete for the CPU.
 */
export async function benchStartup(options: { runs?: number } = {}): Promise<StartupFigures> {
  const runs = options.runs ?? 3;
  const entry = compiledServerEntry();
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const folders: string[] = [];
  try {
    const emptyFolder: StartupRun[] = [];
    for (let i = 0; i < runs; i += 1) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-start-'));
      folders.push(dataDir);
      emptyFolder.push(await startOnce(entry, dataDir));
    }
    const existingFolder: StartupRun[] = [];
    const existing = folders[0];
    if (existing === undefined) return { emptyFolder, existingFolder };
    for (let i = 0; i < runs; i += 1) existingFolder.push(await startOnce(entry, existing));
    return { emptyFolder, existingFolder };
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

/** The first `npm start` of a fresh clone must be serving within this, builds, migrations and demo seed included. */
export const FIRST_START_GOAL_MS = 30_000;

export interface BuildFigures {
  serverMs: number;
  webMs: number;
}

function timedBuild(what: string, command: string, args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the ${what} build failed:\n${result.stdout}${result.stderr}`);
  return performance.now() - started;
}

/**
 * The two builds a first `npm start` runs (scripts/lib/*-build.mjs), each into a throw-away folder so the bench leaves
 * the built app alone.
 */
export function benchBuilds(): BuildFigures {
  const root = path.resolve(serverPackageRoot(import.meta.url), '../..');
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-build-'));
  try {
    const serverMs = timedBuild('server', process.execPath, ['scripts/build-server.mjs', '--outdir', path.join(outdir, 'server')], root);
    const webMs = timedBuild('web', process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', path.join(outdir, 'web'), '--emptyOutDir', '--logLevel', 'warn'], path.join(root, 'apps/web'));
    return { serverMs, webMs };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
