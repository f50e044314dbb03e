import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** On a port the system picks (PORT=0), which the server prints; one picked here could be taken before it binds. */
function startServer(dataDir: string): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', OPSDECK_WEB_DIST: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(started: Started, pattern: RegExp, timeoutMs = 170_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(started.output())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output: ${started.output()}`);
    if (started.child.exitCode !== null) throw new Error(`server exited early: ${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The process always runs the embedded database, so one pass (the PGlite run) covers it.
describe.runIf(inject('dbMode') === 'pglite')('server lifecycle', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-life-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on an empty data folder, seeds the demo, prints the URL and logins, and stops cleanly on SIGTERM', { timeout: 180_000 }, async () => {
    const server = startServer(dataDir);
    await waitForOutput(server, /Opsdeck is running at http:\/\/127\.0\.0\.1:\d+/);
    const url = /Opsdeck is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1] ?? '';
    expect(server.output()).toContain('admin@opsdeck.local');
    expect(server.output()).toContain('opsdeck-demo');
    expect(existsSync(path.join(dataDir, 'opsdeck.lock'))).toBe(true);

    const second = startServer(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by process');

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'opsdeck.lock'))).toBe(false);
  });

  it('starts again on the same data folder without seeding twice', { timeout: 120_000 }, async () => {
    const server = startServer(dataDir);
    await waitForOutput(server, /Opsdeck is running/);
    expect(server.output()).not.toContain('Demo logins');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
