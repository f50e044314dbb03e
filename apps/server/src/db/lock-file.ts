import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../platform/private-files';

export const LOCK_FILE_NAME = 'opsdeck.lock';

/**
 * Who holds the lock. A pid alone is not enough: after a crash or a reboot the pid is recycled, and a lock naming some
 * unrelated live process (a shell, init) would block start-up forever. The kernel's boot id and the process's start
 * time (both from /proc on Linux, null elsewhere) tell the original holder from a process that merely reuses its pid.
 */
export interface LockHolder {
  pid: number;
  bootId: string | null;
  startTime: string | null;
  /** Lets the holder remove only its own lock, never one another process took over. */
  token: string;
}

export interface ProcessProbe {
  isAlive(pid: number): boolean;
  bootId(): string | null;
  startTime(pid: number): string | null;
  /** The command line's words; null when it cannot be read. */
  commandLine(pid: number): string[] | null;
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

export const procProbe: ProcessProbe = {
  isAlive(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: the process exists but belongs to another user.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  bootId: () => readIfPresent('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
  startTime(pid) {
    const stat = readIfPresent(`/proc/${pid}/stat`);
    if (stat === null) return null;
    // Field 2, the command name, is in parentheses and may hold spaces; the start time is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  },
  commandLine(pid) {
    const raw = readIfPresent(`/proc/${pid}/cmdline`);
    return raw === null ? null : raw.split('\0').filter((word) => word !== '');
  },
};

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | number;
    // Before this format the lock held the bare pid.
    if (typeof value === 'number') return Number.isInteger(value) ? { pid: value, bootId: null, startTime: null, token: '' } : null;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || typeof value.token !== 'string') return null;
    return {
      pid: value.pid,
      bootId: typeof value.bootId === 'string' ? value.bootId : null,
      startTime: typeof value.startTime === 'string' ? value.startTime : null,
      token: value.token,
    };
  } catch {
    return null;
  }
}

function isNodeProcess(commandLine: string[]): boolean {
  const program = path.basename(commandLine[0] ?? '');
  return /^node(js)?(\d+)?$/.test(program);
}

/** Whether the process a lock names is still the one that wrote it. */
export function holderIsRunning(holder: LockHolder, probe: ProcessProbe = procProbe): boolean {
  if (holder.pid <= 0 || !probe.isAlive(holder.pid)) return false;
  const bootId = probe.bootId();
  if (holder.bootId !== null && bootId !== null && holder.bootId !== bootId) return false;
  const startTime = probe.startTime(holder.pid);
  if (holder.startTime !== null && startTime !== null) return holder.startTime === startTime;
  // A lock without a start time (the bare-pid format): only a Node.js process can be the server that wrote it.
  const commandLine = probe.commandLine(holder.pid);
  return commandLine === null || isNodeProcess(commandLine);
}

function describeHolder(probe: ProcessProbe): LockHolder {
  return { pid: process.pid, bootId: probe.bootId(), startTime: probe.startTime(process.pid), token: randomBytes(16).toString('hex') };
}

/** Creates the lock with its whole content at once: a reader never sees a half-written file. */
function createExclusively(file: string, holder: LockHolder): boolean {
  const draft = `${file}.${holder.token}.tmp`;
  writeFileSync(draft, JSON.stringify(holder), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * One process owns an embedded data folder at a time. A lock left by a process that has exited, or whose pid now
 * belongs to another program, is taken over; the returned function releases the lock if it is still ours.
 */
export function acquireLock(dataDir: string, probe: ProcessProbe = procProbe): () => void {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const holder = describeHolder(probe);
  for (let attempt = 0; !createExclusively(file, holder); attempt += 1) {
    if (attempt >= 3) throw new Error(`The lock file ${file} keeps changing; is another server starting on the same DATA_DIR?`);
    const existing = readIfPresent(file);
    if (existing === null && existsSync(file)) throw new Error(`The lock file ${file} cannot be read; check its owner and mode`);
    const previous = existing === null ? null : parseHolder(existing);
    if (previous !== null && previous.pid !== process.pid && holderIsRunning(previous, probe)) {
      throw new Error(`The data folder ${dataDir} is in use by process ${previous.pid}; stop it or choose another DATA_DIR`);
    }
    rmSync(file, { force: true });
  }
  return () => {
    const current = readIfPresent(file);
    if (current !== null && parseHolder(current)?.token === holder.token) rmSync(file, { force: true });
  };
}
