import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { credentialUrlOf, originOf, type ResolvedConnection } from '../connections';
import { chooseExecSandbox, execLimits, PRLIMIT_PATH, prlimitArguments, sandboxEnvironment, type ExecSandbox, type SandboxUser } from './exec-sandbox';

/** The sandbox this host offers now (exec-sandbox.ts decides from these facts), for exec checks and exec playbook actions. */
export function currentSandbox(): ExecSandbox {
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // No passwd file: the sandbox user cannot be found, which chooseExecSandbox reports.
  }
  return chooseExecSandbox({
    serverUid: typeof process.geteuid === 'function' ? process.geteuid() : null,
    configuredUser: process.env.OPSDECK_EXEC_USER,
    passwd,
    prlimitAvailable: existsSync(PRLIMIT_PATH),
  });
}

/** Removed as the sandbox user, so a symlink the script planted cannot turn the removal against the server's files. */
export async function removeAsUser(folder: string, user: SandboxUser): Promise<void> {
  await new Promise<void>((resolve) => {
    const rm = spawn('/bin/rm', ['-rf', '--', folder], { uid: user.uid, gid: user.gid, env: {}, stdio: 'ignore' });
    rm.on('error', () => resolve());
    rm.on('close', () => resolve());
  });
}

interface Capture {
  text(): string;
  truncated(): boolean;
}

/** Keeps the first `cap` bytes of a stream, decoded once at the end so no character is split between chunks. */
function capture(stream: NodeJS.ReadableStream | null, cap: number): Capture {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  stream?.on('data', (chunk: Buffer) => {
    const room = cap - size;
    const kept = chunk.length > room ? chunk.subarray(0, Math.max(0, room)) : chunk;
    cut ||= kept.length < chunk.length;
    if (kept.length === 0) return;
    chunks.push(kept);
    size += kept.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8'), truncated: () => cut };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already empty.
  }
}

export interface SandboxRunOptions {
  /** The program and its arguments, run under prlimit. */
  command: readonly string[];
  /** The run's own variables; the sandbox adds PATH, HOME, TMPDIR and LANG. */
  variables: Readonly<Record<string, string>>;
  user: SandboxUser;
  /** The private folder: HOME and TMPDIR. */
  home: string;
  cwd: string;
  /** Wall-clock limit, and the CPU limit prlimit sets. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes kept of each stream; the rest is dropped and the run says so. */
  outputCap: { stdout: number; stderr: number };
  /** Between SIGTERM to the process group and SIGKILL; 0 kills at once. */
  graceMs: number;
  /** What a stopped run says: its timeout passed, or the caller's signal fired. */
  stopMessages: { timeout: string; aborted: () => string };
}

export interface SandboxRun {
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the run was stopped before it ended by itself, or null. */
  stopped: string | null;
  durationMs: number;
}

/**
 * One program in the exec sandbox (ADR 0042), for exec checks, exec scrapers and exec playbook actions alike: as the
 * unprivileged user, with bounded resources and nothing of the server's environment, in its own process group, so a
 * timeout or stop reaches everything it started, and whatever it leaves running goes with it. Rejects only when the
 * program cannot start.
 */
export async function runInSandbox(options: SandboxRunOptions): Promise<SandboxRun> {
  const started = performance.now();
  const child = spawn(PRLIMIT_PATH, [...prlimitArguments(execLimits(options.timeoutMs)), '--', ...options.command], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    uid: options.user.uid,
    gid: options.user.gid,
    env: sandboxEnvironment(options.home, options.variables),
  });
  const stdout = capture(child.stdout, options.outputCap.stdout);
  const stderr = capture(child.stderr, options.outputCap.stderr);
  let stopped: string | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (message: string): void => {
    if (stopped !== null) return;
    stopped = message;
    if (options.graceMs <= 0) {
      signalGroup(child, 'SIGKILL');
      return;
    }
    signalGroup(child, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), options.graceMs);
  };
  const timer = setTimeout(() => stop(options.stopMessages.timeout), options.timeoutMs);
  const onAbort = (): void => stop(options.stopMessages.aborted());
  options.signal.addEventListener('abort', onAbort, { once: true });
  // Aborted while the caller prepared the run: the listener above will not fire.
  if (options.signal.aborted) onAbort();
  child.on('exit', () => {
    // Processes the program left behind do not outlive it (and would hold its output pipes open); a stopped one's
    // group gets the rest of its grace period from killTimer.
    if (stopped === null) signalGroup(child, 'SIGKILL');
  });
  try {
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
    });
    return {
      stdout: stdout.text(),
      stderr: stderr.text(),
      stdoutTruncated: stdout.truncated(),
      stderrTruncated: stderr.truncated(),
      ...exit,
      stopped,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    options.signal.removeEventListener('abort', onAbort);
    if (stopped !== null) signalGroup(child, 'SIGKILL');
  }
}

export interface Checkout {
  url: string;
  branch?: string | undefined;
  depth?: number | undefined;
  /** A stored connection whose user name and password or token git sends, to the checkout's origin only. */
  connection?: string | undefined;
}

/** Opens a stored connection for the run (and adds its secrets to the run's scrub list). */
export type OpenConnection = (reference: string) => Promise<ResolvedConnection>;

/**
 * git configuration, as environment variables (never on the command line, never in the clone's .git/config), that
 * sends the connection's credentials as a Basic Authorization header to requests under the checkout's origin alone.
 * The connection must belong to that origin: its own URL's, or its hosted service's (GitHub, Azure DevOps).
 */
async function checkoutCredentials(checkout: Checkout, open: OpenConnection | undefined): Promise<Record<string, string>> {
  const reference = checkout.connection;
  if (reference === undefined || reference === '') return {};
  if (open === undefined) throw new Error('checkout.connection cannot be opened here');
  const connection = await open(reference);
  const own = originOf(credentialUrlOf(connection));
  const target = originOf(checkout.url);
  if (own === null || target !== own) {
    throw new Error(`checkout of ${checkout.url} refused: connection '${reference}' belongs to ${own ?? 'no address'}, and its credentials are sent nowhere else`);
  }
  if (connection.password === null || connection.password === '') throw new Error(`checkout of ${checkout.url} refused: connection '${reference}' holds no password or token`);
  const basic = Buffer.from(`${connection.username ?? 'x-access-token'}:${connection.password}`).toString('base64');
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${own}/.extraHeader`, GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` };
}

/** Wall-clock limit of a clone, within the run's own. */
const CHECKOUT_TIMEOUT_MS = 5 * 60_000;

/**
 * duty's checkout: the repository cloned into the private folder before the script, which then starts in it. git
 * runs in the sandbox like the script, never asks for a password (GIT_TERMINAL_PROMPT=0) and reads no configuration
 * of the server's. Returns the folder to start in; throws with git's last words when the clone fails.
 */
export async function cloneInSandbox(
  checkout: Checkout,
  user: SandboxUser,
  folder: string,
  signal: AbortSignal,
  timeoutMs = CHECKOUT_TIMEOUT_MS,
  open?: OpenConnection,
): Promise<string> {
  const target = path.join(folder, 'checkout');
  const branch = checkout.branch === undefined || checkout.branch === '' ? [] : ['--branch', checkout.branch];
  const credentials = await checkoutCredentials(checkout, open);
  const run = await runInSandbox({
    command: ['git', 'clone', '--quiet', '--single-branch', '--depth', String(checkout.depth ?? 1), ...branch, '--', checkout.url, target],
    variables: { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...credentials },
    user,
    home: folder,
    cwd: folder,
    timeoutMs: Math.min(timeoutMs, CHECKOUT_TIMEOUT_MS),
    signal,
    outputCap: { stdout: 64 * 1024, stderr: 64 * 1024 },
    graceMs: 2000,
    stopMessages: { timeout: 'the clone took too long and was stopped', aborted: () => 'the run was stopped while the repository was cloned' },
  });
  if (run.stopped === null && run.code === 0) return target;
  const tail = run.stopped ?? run.stderr.trim().split('\n').slice(-3).join(' ').slice(-400);
  throw new Error(`checkout of ${checkout.url}${branch.length === 0 ? '' : ` (${checkout.branch ?? ''})`} failed${tail === '' ? '' : `: ${tail}`}`);
}
