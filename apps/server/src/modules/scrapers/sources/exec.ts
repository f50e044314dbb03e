import { chown, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkoutUrl, type ExecConnections } from '@opsdeck/shared';
import { resolveConnection, type ResolvedConnection } from '../../connections';
import { cloneInSandbox, commandForRun, currentSandbox, execConnectionEnvironment, removeAsUser, runInSandbox, SANDBOX_PATH, type Checkout, type SandboxRun, type SecretCollector } from '../../health';
import { openScraperEntry } from '../scraper-secrets';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import { ExtractError, parseDocuments, type ItemCollector } from './extract';
import { isRecord } from '../../../platform/json-values';
import { secretScrubbingRunner } from './scrubbed-source';

/** Standard output is the scrape, so it may be as large as a scraped file; a larger one is refused, never parsed cut. */
export const MAX_EXEC_STDOUT_BYTES = 10 * 1024 * 1024;
const MAX_EXEC_STDERR_BYTES = 64 * 1024;
/** The CPU a script may use, and how long it may run when the scrape's own timeout is longer. */
export const EXEC_SCRAPER_TIMEOUT_MS = 15 * 60_000;
const KILL_GRACE_MS = 2000;

function checkoutOf(opened: Record<string, unknown>): Checkout | null {
  const checkout = opened.checkout;
  if (!isRecord(checkout) || typeof checkout.url !== 'string') return null;
  return {
    url: checkoutUrl(checkout.url),
    ...(typeof checkout.branch === 'string' && checkout.branch !== '' ? { branch: checkout.branch } : {}),
    ...(typeof checkout.depth === 'number' ? { depth: checkout.depth } : {}),
    ...(typeof checkout.connection === 'string' && checkout.connection !== '' ? { connection: checkout.connection } : {}),
  };
}

/** The entry's `env` as opened for this run; the values join the secrets scrubbed from what is stored (ADR 0042). */
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
  let run: SandboxRun;
  try {
    await chown(folder, sandbox.user.uid, sandbox.user.gid);
    const open = async (reference: string): Promise<ResolvedConnection> => {
      const connection = await resolveConnection(context.pool, context.secretKey, reference);
      secrets.addConnection(connection);
      return connection;
    };
    const credentials = await execConnectionEnvironment(isRecord(opened.connections) ? (opened.connections as ExecConnections) : undefined, open, folder, sandbox.user);
    if ('error' in credentials) throw new Error(`the script was not started: ${credentials.error}`);
    const checkout = checkoutOf(opened);
    const cwd = checkout === null ? folder : await cloneInSandbox(checkout, sandbox.user, folder, context.signal, undefined, open);
    const runVariables = { ...variables, ...credentials.variables };
    const prepared = commandForRun(script, runVariables, SANDBOX_PATH);
    if ('error' in prepared) throw new Error(prepared.error);
    run = await runInSandbox({
      command: prepared.command,
      variables: runVariables,
      user: sandbox.user,
      home: folder,
      cwd,
      timeoutMs: EXEC_SCRAPER_TIMEOUT_MS,
      signal: context.signal,
      outputCap: { stdout: MAX_EXEC_STDOUT_BYTES, stderr: MAX_EXEC_STDERR_BYTES },
      graceMs: KILL_GRACE_MS,
      stopMessages: {
        timeout: `the script ran longer than ${EXEC_SCRAPER_TIMEOUT_MS / 60_000} minutes and was stopped`,
        aborted: () => 'the run was stopped (timeout or shutdown) while the script ran',
      },
    });
  } finally {
    await removeAsUser(folder, sandbox.user);
  }
  if (run.stopped !== null) throw new Error(run.stopped);
  if (run.stdoutTruncated) throw new Error(`the script wrote more than ${MAX_EXEC_STDOUT_BYTES / 1024 / 1024} MB to standard output: not read`);
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
