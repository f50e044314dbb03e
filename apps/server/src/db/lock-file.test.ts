import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, holderIsRunning, LOCK_FILE_NAME, procProbe, type ProcessProbe } from './lock-file';

const onLinux = process.platform === 'linux';

describe('the data folder lock', () => {
  let sleeper: ChildProcess;
  let sleeperPid: number;
  const folders: string[] = [];

  function dataDir(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-lock-'));
    folders.push(dir);
    return dir;
  }

  function writeLock(dir: string, content: unknown): void {
    writeFileSync(path.join(dir, LOCK_FILE_NAME), typeof content === 'string' ? content : JSON.stringify(content));
  }

  beforeAll(() => {
    sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    if (sleeper.pid === undefined) throw new Error('could not start sleep');
    sleeperPid = sleeper.pid;
  });
  afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    sleeper.kill();
  });

  it('is written with mode 0600 in a 0700 folder and removed on release', () => {
    const dir = dataDir();
    const release = acquireLock(dir);
    const file = path.join(dir, LOCK_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose process has exited', () => {
    const dir = dataDir();
    writeLock(dir, { pid: 2 ** 22 + 12345, bootId: null, startTime: null, token: 'gone' });
    expect(() => acquireLock(dir)()).not.toThrow();
  });

  it.runIf(onLinux)('takes over an old bare-pid lock naming a live process that is not a Node.js server', () => {
    const dir = dataDir();
    writeLock(dir, String(sleeperPid));
    const release = acquireLock(dir);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it.runIf(onLinux)('takes over a bare-pid lock naming pid 1, the init process', () => {
    const dir = dataDir();
    writeLock(dir, '1');
    expect(() => acquireLock(dir)()).not.toThrow();
  });

  it.runIf(onLinux)('takes over a lock whose pid was recycled by another process started later', () => {
    const dir = dataDir();
    const realStart = procProbe.startTime(sleeperPid);
    expect(realStart).not.toBeNull();
    writeLock(dir, { pid: sleeperPid, bootId: procProbe.bootId(), startTime: String(Number(realStart) - 1), token: 'recycled' });
    expect(() => acquireLock(dir)()).not.toThrow();
  });

  it.runIf(onLinux)('takes over a lock written before the machine rebooted', () => {
    const dir = dataDir();
    writeLock(dir, { pid: sleeperPid, bootId: 'another-boot', startTime: procProbe.startTime(sleeperPid), token: 'old-boot' });
    expect(() => acquireLock(dir)()).not.toThrow();
  });

  it.runIf(onLinux)('refuses to start while the process that wrote the lock is still running', () => {
    const dir = dataDir();
    const holder = { pid: sleeperPid, bootId: procProbe.bootId(), startTime: procProbe.startTime(sleeperPid), token: 'live' };
    writeLock(dir, holder);
    expect(() => acquireLock(dir)).toThrow(`in use by process ${sleeperPid}`);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'))).toEqual(holder);
  });

  it('treats a bare-pid lock held by a live Node.js process as in use', () => {
    const probe: ProcessProbe = {
      isAlive: () => true,
      bootId: () => null,
      startTime: () => null,
      commandLine: () => ['/usr/bin/node', '--import', 'tsx', 'apps/server/src/cli.ts', 'serve'],
    };
    expect(holderIsRunning({ pid: 4242, bootId: null, startTime: null, token: '' }, probe)).toBe(true);
    expect(holderIsRunning({ pid: 4242, bootId: null, startTime: null, token: '' }, { ...probe, commandLine: () => ['/bin/sleep', '300'] })).toBe(false);
  });

  it('releases only its own lock, never one another process took over since', () => {
    const dir = dataDir();
    const release = acquireLock(dir);
    const successor = { pid: sleeperPid, bootId: null, startTime: null, token: 'successor' };
    writeLock(dir, successor);
    release();
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'))).toEqual(successor);
  });

  it('ignores a lock file that is not a lock', () => {
    const dir = dataDir();
    writeLock(dir, 'not a lock');
    expect(() => acquireLock(dir)()).not.toThrow();
  });
});
