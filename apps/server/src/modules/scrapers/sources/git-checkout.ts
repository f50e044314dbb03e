import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A file source's `url` as config-db writes it (go-getter): `github.com/org/repo?ref=v1`, `git::https://…`, `https://…`. */
export interface GitSource {
  /** https:// or http://, without the `ref` query. */
  url: string;
  /** A branch, tag or commit; the remote's HEAD when null. */
  ref: string | null;
}

/** The longest a fetch and checkout may take, whatever the scraper's own timeout. */
export const GIT_CHECKOUT_TIMEOUT_MS = 60_000;

const REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/**
 * The repository a url names, or why it is not one this server fetches: only http(s) remotes (a bare host/path is read
 * as https, as go-getter does), no credentials in it, and no query but `ref`. Local paths, file://, ssh and the other
 * go-getter forms are refused: a file source may be written by any editor, and those would read the server's own disk
 * or keys.
 */
export function parseGitSource(text: string): GitSource | { error: string } {
  let raw = text.trim().replace(/^git::/, '');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    if (raw.startsWith('/') || raw.startsWith('.') || raw.includes('@')) return { error: 'must be an http(s) git URL or host/path (github.com/org/repo): local paths and ssh are not fetched' };
    raw = `https://${raw}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { error: 'is not a URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { error: `uses ${parsed.protocol.replace(':', '')}: only http and https repositories are fetched` };
  if (parsed.username !== '' || parsed.password !== '') return { error: 'holds credentials: only public repositories are fetched' };
  const ref = parsed.searchParams.get('ref');
  const others = [...parsed.searchParams.keys()].filter((key) => key !== 'ref');
  if (others.length > 0) return { error: `${others.join(', ')} is not read: only ?ref= is` };
  if (ref !== null && !REF.test(ref)) return { error: `ref '${ref}' is not a branch, tag or commit name` };
  parsed.search = '';
  parsed.hash = '';
  return { url: parsed.toString(), ref };
}

function runGit(args: readonly string[], cwd: string, home: string, deadline: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      reject(new Error(`the fetch took longer than ${GIT_CHECKOUT_TIMEOUT_MS / 1000} s`));
      return;
    }
    const child = spawn('git', args, {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        // Only the network transports: never file://, ext:: or ssh, whatever a redirect or a submodule says.
        GIT_ALLOW_PROTOCOL: 'http:https',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16 * 1024) stderr += chunk.toString('utf8');
    });
    const stop = (): void => {
      child.kill('SIGKILL');
    };
    const timer = setTimeout(stop, remaining);
    signal.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      if (code === 0) resolve();
      else if (signal.aborted) reject(new Error('the run was stopped while the repository was fetched'));
      else if (Date.now() >= deadline) reject(new Error(`the fetch took longer than ${GIT_CHECKOUT_TIMEOUT_MS / 1000} s`));
      else reject(new Error(stderr.trim().split('\n').slice(-2).join(' ').slice(-400) || `git ${args[0] ?? ''} failed`));
    });
  });
}

/**
 * Fetches one commit of the repository (depth 1) into a private temporary folder, hands `work` that folder, and removes
 * it after. git runs with no system or user configuration and only the http and https transports; nothing of the
 * repository runs (hooks and configuration are not fetched).
 */
export async function withGitCheckout<T>(source: GitSource, signal: AbortSignal, work: (folder: string) => Promise<T>): Promise<T> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-git-source-'));
  const folder = path.join(home, 'checkout');
  const deadline = Date.now() + GIT_CHECKOUT_TIMEOUT_MS;
  try {
    await runGit(['init', '--quiet', folder], home, home, deadline, signal);
    await runGit(['remote', 'add', 'origin', source.url], folder, home, deadline, signal);
    try {
      await runGit(['fetch', '--quiet', '--depth', '1', 'origin', source.ref ?? 'HEAD'], folder, home, deadline, signal);
      await runGit(['checkout', '--quiet', 'FETCH_HEAD'], folder, home, deadline, signal);
    } catch (error) {
      throw new Error(`fetching ${source.url}${source.ref === null ? '' : ` at ${source.ref}`} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return await work(folder);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
