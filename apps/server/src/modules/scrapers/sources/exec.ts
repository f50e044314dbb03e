import { spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { currentSandbox, execLimits, PRLIMIT_PATH, prlimitArguments, removeAsUser, sandboxEnvironment, type SandboxUser, type SecretCollector } from '../../health';
import { openScraperEntry } from '../scraper-secrets';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import { ExtractError, parseDocuments, type ItemCollector } from './extract';
import { isRecord } from './json-values';
import { secretScrubbingRunner } from './scrubbed-source';

/** Standard output is the scrape, so it may be as large as a scraped file; a larger one is refused, never parsed cut. */
export const MAX_EXEC_STDOUT_BYTES = 10 * 1024 * 1024;
const MAX_EXEC_STDERR_BYTES = 64 * 1024;
/** The CPU a script may use, and how long it may run when the scrape's own timeout is longer. */
export const EXEC_SCRAPER_TIMEOUT_MS = 15 * 60_000;
const KILL_GRACE_MS = 2000;

interface Output {
  text(): string;
  overflowed(): boolean;
}

function collect(stream: NodeJS.ReadableStream | null, cap: number): Output {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream?.on('data', (chunk: Buffer) => {
    if (size + chunk.length > cap) {
      over = true;
      chunks.push(chunk.subarray(0, Math.max(0, cap - size)));
      size = cap;
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8'), overflowed: () => over };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group has already exited.
  }
}

interface ScriptRun {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** bash as the sandbox user, in its own process group, stopped with its whole group on the run's signal or timeout. */
/** Runs `command` in the sandbox: as `user`, from `cwd`, with HOME in `home`, the spec's variables and nothing else. */
async function runSandboxed(
  command: readonly string[],
  variables: Record<string, string>,
  user: SandboxUser,
  where: { home: string; cwd: string },
  signal: AbortSignal,
): Promise<ScriptRun> {
  const child = spawn(PRLIMIT_PATH, [...prlimitArguments(execLimits(EXEC_SCRAPER_TIMEOUT_MS)), '--', ...command], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: where.cwd,
    uid: user.uid,
    gid: user.gid,
    env: sandboxEnvironment(where.home, variables),
  });
  const stdout = collect(child.stdout, MAX_EXEC_STDOUT_BYTES);
  const stderr = collect(child.stderr, MAX_EXEC_STDERR_BYTES);
  let stopped: string | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (why: string): void => {
    if (stopped !== null) return;
    stopped = why;
    killGroup(child, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop(`the script ran longer than ${EXEC_SCRAPER_TIMEOUT_MS / 60_000} minutes and was stopped`), EXEC_SCRAPER_TIMEOUT_MS);
  const onAbort = (): void => stop('the run was stopped (timeout or shutdown) while the script ran');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  try {
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code: number | null, how: NodeJS.Signals | null) => resolve({ code, signal: how }));
    });
    if (stopped !== null) throw new Error(stopped);
    if (stdout.overflowed()) throw new Error(`the script wrote more than ${MAX_EXEC_STDOUT_BYTES / 1024 / 1024} MB to standard output: not read`);
    return { stdout: stdout.text(), stderr: stderr.text(), ...exit };
  } finally {
    clearTimeout(timer);
    clearTimeout(killTimer);
    signal.removeEventListener('abort', onAbort);
    // Whatever the script left running goes with it.
    killGroup(child, 'SIGKILL');
  }
}

/** The entry's `env` as opened for this run; the values join the secrets scrubbed from what is stored (ADR 0042). */
interface Checkout {
  url: string;
  branch?: string;
  depth?: number;
}

function checkoutOf(opened: Record<string, unknown>): Checkout | null {
  const checkout = opened.checkout;
  if (!isRecord(checkout) || typeof checkout.url !== 'string') return null;
  return {
    url: checkout.url.trim(),
    ...(typeof checkout.branch === 'string' && checkout.branch !== '' ? { branch: checkout.branch } : {}),
    ...(typeof checkout.depth === 'number' ? { depth: checkout.depth } : {}),
  };
}

/**
 * duty's checkout: the repository cloned before the script, which then starts in it. git runs in the sandbox like
 * the script, never asks for a password (GIT_TERMINAL_PROMPT=0) and reads no configuration of the server's.
 */
async function cloneRepository(checkout: Checkout, user: SandboxUser, folder: string, signal: AbortSignal): Promise<string> {
  const target = path.join(folder, 'checkout');
  const command = ['git', 'clone', '--quiet', '--single-branch', '--depth', String(checkout.depth ?? 1), ...(checkout.branch === undefined ? [] : ['--branch', checkout.branch]), '--', checkout.url, target];
  const run = await runSandboxed(command, { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' }, user, { home: folder, cwd: folder }, signal);
  if (run.code !== 0) {
    const tail = run.stderr.trim().split('\n').slice(-3).join(' ').slice(-400);
    throw new Error(`checkout of ${checkout.url}${checkout.branch === undefined ? '' : ` (${checkout.branch})`} failed${tail === '' ? '' : `: ${tail}`}`);
  }
  return target;
}

function environmentOf(opened: Record<string, unknown>, secrets: SecretCollector): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const variable of Array.isArray(opened.env) ? opened.env : []) {
    if (!isRecord(variable) || typeof variable.name !== 'string') continue;
    const value = typeof variable.value === 'string' ? variable.value : '';
    variables[variable.name] = value;
    secrets.add(value);
  }
  return variables;
}

/** JSON when it starts like JSON, YAML (one or more documents) otherwise, as config-db reads a script's output. */
function formatOf(stdout: string): 'json' | 'yaml' {
  const first = stdout.trimStart()[0];
  return first === '[' || first === '{' ? 'json' : 'yaml';
}

async function scrape(entry: SourceEntry, context: SourceContext, secrets: SecretCollector, collector: ItemCollector): Promise<void> {
  const label = `exec[${entry.index}]`;
  const opened = openScraperEntry(context.secretKey, context.scraperId, entry.spec);
  secrets.addOpenedSpec(entry.spec, opened);
  const script = typeof opened.script === 'string' ? opened.script : '';
  if (script.trim() === '') throw new ExtractError('no script');
  const variables = environmentOf(opened, secrets);
  const sandbox = currentSandbox();
  if (sandbox.kind === 'refuse') throw new Error(sandbox.reason.replace('Exec checks', 'Exec scrapers'));
  const folder = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-scrape-'));
  let run: ScriptRun;
  try {
    await chown(folder, sandbox.user.uid, sandbox.user.gid);
    const checkout = checkoutOf(opened);
    const cwd = checkout === null ? folder : await cloneRepository(checkout, sandbox.user, folder, context.signal);
    run = await runSandboxed(['/bin/bash', '-c', script], variables, sandbox.user, { home: folder, cwd }, context.signal);
  } finally {
    await removeAsUser(folder, sandbox.user);
  }
  if (run.code !== 0) {
    const why = run.code === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.code}`;
    const tail = run.stderr.trim().slice(-500);
    throw new Error(`the script ${why}${tail === '' ? '' : `: ${tail}`}`);
  }
  if (run.stdout.trim() === '') throw new ExtractError('the script wrote nothing to standard output: print the configs as JSON or YAML');
  const format = formatOf(run.stdout);
  const documents = parseDocuments(run.stdout, format);
  // A script printing a list prints one config per element, as config-db's exec scraper reads it (unless items says more).
  const configs = entry.spec.items === undefined ? documents.flatMap((document) => (Array.isArray(document) ? (document as unknown[]) : [document])) : documents;
  const origin = { where: label, source: `exec:${entry.index}`, format };
  configs.forEach((config, index) => collector.addDocument(config, configs.length === 1 ? origin : { ...origin, where: `${label} config[${index}]` }));
}

/**
 * config-db's exec scraper: runs the entry's bash script in the exec sandbox of ADR 0042 (an unprivileged user, a
 * fresh private folder, a clean environment, bounded resources, its own process group) and reads its standard output
 * as JSON or YAML documents, each cut into configs like a scraped file. Only administrators may save one (spec-hooks).
 */
export const runExecSource: SourceRunner = secretScrubbingRunner('exec', scrape);
