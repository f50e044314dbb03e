import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether any process of the group is still alive (signal 0 only asks). */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

// README: `npm start` stops cleanly on SIGTERM. npm passes the signal to the one process it started; the launcher,
// the server and any build helper must all end with it, and free the port and the data folder's lock.
test('a SIGTERM to the npm start process stops the launcher and the server, and frees the port', async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-start-'));
  const port = await freePort();
  // Its own embedded database, whatever the shell that started the specs names.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('OPSDECK_')));
  // Its own process group, so the test can tell whether anything it started is left.
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...inherited, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', OPSDECK_SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
  });
  const groupId = npm.pid;
  if (groupId === undefined) throw new Error('npm did not start');
  try {
    await expect.poll(() => answers(`http://127.0.0.1:${port}/healthz`), { timeout: 150_000, intervals: [250] }).toBe(true);
    process.kill(groupId, 'SIGTERM');
    await expect.poll(() => groupAlive(groupId), { timeout: 20_000, intervals: [100] }).toBe(false);
    expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false);
  } finally {
    if (groupAlive(groupId)) process.kill(-groupId, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
