import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER = path.join(ROOT, 'apps/server');

interface Started {
  child: ChildProcess;
  /** Where the server said it listens; '' until it has. */
  url: () => string;
  stdout: () => string;
  output: () => string;
  exited: Promise<unknown[]>;
}

/**
 * Starts the compiled server on a port the system picks (PORT=0), read back from its "running at" line: a port chosen
 * here and bound later was once taken in between by a connection of the e2e specs that run beside this suite.
 */
function start(entry: string, dataDir: string, env: NodeJS.ProcessEnv = {}): Started {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    OPSDECK_WEB_DIST: dataDir,
    ...env,
  };
  if (env.LOG_FORMAT === undefined) delete childEnv.LOG_FORMAT;
  delete childEnv.DATABASE_URL;
  // Pipes, not a terminal: what a service manager or a container runtime gives the server.
  const child = spawn(process.execPath, [entry, 'serve'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = () => /Opsdeck is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  return { child, url, stdout: () => stdout, output: () => `${stdout}\n${stderr}`, exited: once(child, 'exit') };
}

async function waitForHealth(server: Started, timeoutMs = 170_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited early: ${server.output()}`);
    if (Date.now() > deadline) throw new Error(`no healthy /healthz in time; output: ${server.output()}`);
    const url = server.url();
    try {
      if (url !== '' && (await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not answering yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(server: Started): Promise<void> {
  server.child.kill('SIGTERM');
  const [code] = await server.exited;
  expect(code).toBe(0);
}

// The compiled server always runs the embedded database, so one pass (the PGlite run) covers it.
describe.runIf(inject('dbMode') === 'pglite')('the compiled server', () => {
  let buildDir = '';
  let entry = '';
  let dataDir = '';

  beforeAll(() => {
    // Inside apps/server, as dist is: the bundle finds its package (version, default web folder) by walking up.
    mkdirSync(path.join(SERVER, '.tmp'), { recursive: true });
    buildDir = mkdtempSync(path.join(SERVER, '.tmp', 'build-'));
    entry = path.join(buildDir, 'dist', 'main.js');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-compiled-'));
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), '--outdir', path.join(buildDir, 'dist')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`the server build failed:\n${build.stdout}${build.stderr}`);
  });
  afterAll(() => {
    if (buildDir !== '') rmSync(buildDir, { recursive: true, force: true });
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates and seeds an empty data folder, answers, and writes only JSON lines to a stdout that is not a terminal', { timeout: 180_000 }, async () => {
    const server = start(entry, dataDir);
    await waitForHealth(server);
    await stop(server);

    const lines = server.stdout().split('\n').filter((line) => line !== '');
    const events = lines.map((line) => JSON.parse(line) as { level: number; time: number; msg: string; url?: string; logins?: unknown[] });
    for (const event of events) expect(event).toEqual(expect.objectContaining({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) }));
    const messages = events.map((event) => event.msg);
    expect(messages).toContain('Demo logins');
    expect(messages).toContain(`Opsdeck is running at ${server.url()}`);
    expect(messages).toContain('request completed');
    expect(messages).toContain('shutting down');
  });

  it('writes one readable, uncoloured line per event when LOG_FORMAT=pretty forces it on a pipe', { timeout: 120_000 }, async () => {
    const server = start(entry, dataDir, { LOG_FORMAT: 'pretty' });
    await waitForHealth(server);
    await stop(server);

    const stdout = server.stdout();
    expect(stdout).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: incoming request GET \/healthz \[req-\d+\]$/m);
    expect(stdout).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed 200 \d+ ms \[req-\d+\]$/m);
    expect(stdout).toContain(`Opsdeck is running at ${server.url()}`);
    expect(stdout).not.toContain('{"level"');
    expect(stdout).not.toContain('\u001b[');
  });
});
