import { chown, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { checkoutUrl, type ExecConnections } from '@opsdeck/shared';
import { resolveConnection, type ResolvedConnection } from '../../connections';
import { kubernetesConnectionOf } from '../../scrapers';
import { cloneInSandbox, collectArtifacts, commandForRun, currentSandbox, execConnectionEnvironment, removeAsUser, runInSandbox, SANDBOX_PATH, scrubSecrets, SecretCollector, type SandboxRun, type SandboxUser } from '../../health';
import type { ActionOutcome, ActionRunContext, ActionRunner, OpenedNameValue, PlaybookTarget } from '../types';
import { ACTION_OUTPUT_CAP_BYTES, completedOutcome, errorText, failedOutcome, stopMessage, timeoutMessage } from './action-outcome';

/** Between SIGTERM to the script's process group and SIGKILL: time for a trap to clean up, not to keep working. */
export const EXEC_KILL_GRACE_MS = 2000;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `PARAM_<NAME>`: the parameter name upper-cased, every character that is not a letter or digit turned into `_`. */
export function paramEnvName(name: string): string {
  return `PARAM_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

const TARGET_PREFIX: Record<PlaybookTarget['type'], string> = { config: 'CONFIG', component: 'COMPONENT', check: 'CHECK' };

/**
 * The script's own variables (the sandbox adds PATH, HOME, TMPDIR and LANG): the parameters, the run id, the target,
 * then the action's `env`. Values reach the script only this way, never inside its text, so a parameter holding
 * `$(rm -rf /)` is data the script reads, not code it runs.
 */
export function execEnvironment(context: Pick<ActionRunContext, 'params' | 'runId' | 'target'>, env: readonly OpenedNameValue[] | undefined): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(context.params)) variables[paramEnvName(name)] = value;
  variables.PLAYBOOK_RUN_ID = context.runId;
  if (context.target !== null) {
    const prefix = TARGET_PREFIX[context.target.type];
    variables[`${prefix}_ID`] = context.target.id;
    variables[`${prefix}_NAME`] = context.target.name;
    variables[`${prefix}_TYPE`] = context.target.kind ?? '';
  }
  for (const entry of env ?? []) variables[entry.name] = entry.value;
  return variables;
}

/**
 * An array subscript holding a command substitution (`x[$(cmd)]`, ``x[`cmd`]``). No quoting keeps such a value data:
 * wherever bash evaluates a variable arithmetically (`[[ $v -eq 1 ]]`, `[[ -v $v ]]`, `let`, `declare -i`, an array
 * index), directly or through a variable the script copies it into, it expands the subscript and runs the command. A
 * parameter, a target's name or a templated value is typed by whoever runs the playbook or names the resource, while
 * the script is an admin's, so such a value is refused rather than handed to it.
 */
const ARITHMETIC_COMMAND = /\[[^]*?(?:\$\(|`)/;

/** The first variable the operating system would refuse, or the script could run as code, described; null when all are fine. */
export function invalidEnvironment(variables: Readonly<Record<string, string>>): string | null {
  for (const [name, value] of Object.entries(variables)) {
    if (!ENV_NAME.test(name)) return `'${name}' is not a valid environment variable name`;
    if (value.includes('\0')) return `the value of ${name} holds a NUL character`;
    if (ARITHMETIC_COMMAND.test(value)) {
      return `the value of ${name} holds an array subscript with a command substitution ('[' then '$(' or a backtick), which bash runs wherever a script uses the value arithmetically`;
    }
  }
  return null;
}

async function runSandboxed(script: string, variables: Record<string, string>, context: ActionRunContext, user: SandboxUser, where: { home: string; cwd: string }): Promise<ActionOutcome> {
  const startedAt = performance.now();
  const prepared = commandForRun(script, variables, SANDBOX_PATH);
  if ('error' in prepared) return failedOutcome(prepared.error);
  let run: SandboxRun;
  try {
    run = await runInSandbox({
      command: prepared.command,
      variables,
      user,
      ...where,
      timeoutMs: context.timeoutMs,
      signal: context.signal,
      outputCap: { stdout: ACTION_OUTPUT_CAP_BYTES, stderr: ACTION_OUTPUT_CAP_BYTES },
      graceMs: EXEC_KILL_GRACE_MS,
      stopMessages: { timeout: timeoutMessage(context.timeoutMs), aborted: () => stopMessage(context.signal, context.timeoutMs, startedAt) },
    });
  } catch (error) {
    return failedOutcome(`The script could not start: ${errorText(error)}`);
  }
  const truncated = run.stdoutTruncated || run.stderrTruncated;
  const result = {
    stdout: run.stdout,
    stderr: run.stderr,
    ...(run.code === null ? {} : { exitCode: run.code }),
    ...(truncated ? { truncated } : {}),
  };
  if (run.stopped !== null) return failedOutcome(run.stopped, result);
  if (run.code === 0) return completedOutcome(result);
  if (run.code !== null) return failedOutcome(`exit code ${run.code}`, result);
  return failedOutcome(`killed by ${run.signal ?? 'a signal'}`, result);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Mission Control's `connections.fromConfigItem`: the kubernetes connection that the kubeconfig of the item's own
 * scraper names, handed over as `connections.kubernetes` is (the spec refuses both together). Only a stored connection
 * is followed: an item scraped in-cluster or with an inline kubeconfig hands over nothing and the script is not started.
 */
async function withItemConnection(pool: pg.Pool, connections: ExecConnections | undefined): Promise<{ value: ExecConnections | undefined } | { error: string }> {
  const item = connections?.fromConfigItem;
  if (item === undefined) return { value: connections };
  if (!UUID.test(item)) return { error: `connections.fromConfigItem rendered '${item}', which is not a catalog item id` };
  const found = await pool.query<{ spec: unknown }>(
    `select s.spec from config_items c join config_scrapers s on s.id = c.scraper_id where c.id = $1 and s.deleted_at is null`,
    [item],
  );
  const spec = found.rows[0]?.spec;
  if (spec === undefined) return { error: `connections.fromConfigItem: the catalog item ${item} has no scraper that made it` };
  const reference = kubernetesConnectionOf(spec);
  if (reference === null) return { error: `connections.fromConfigItem: the scraper of the catalog item ${item} names no kubernetes connection in its kubeconfig` };
  return { value: { ...connections, kubernetes: { connection: reference } } };
}

/**
 * Runs the action's script with bash exactly as exec checks run theirs (exec-sandbox.ts, ADR 0042): as an
 * unprivileged user, in a fresh private folder, with a clean environment and bounded resources, in its own process
 * group. Exit code 0 completes the action.
 */
export const runExecAction: ActionRunner = async (action, context) => {
  if (action.exec === undefined) throw new Error(`Action '${action.name}' has no exec block`);
  const variables = execEnvironment(context, action.exec.env);
  const invalid = invalidEnvironment(variables);
  if (invalid !== null) return failedOutcome(`The script was not started: ${invalid}`);
  const sandbox = currentSandbox();
  if (sandbox.kind === 'refuse') return failedOutcome(sandbox.reason);
  const secrets = new SecretCollector();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-playbook-'));
  try {
    await chown(folder, sandbox.user.uid, sandbox.user.gid);
    const opened = async (reference: string): Promise<ResolvedConnection> => {
      const connection = await resolveConnection(context.pool, context.secretKey, reference);
      secrets.addConnection(connection);
      return connection;
    };
    const connections = await withItemConnection(context.pool, action.exec.connections);
    if ('error' in connections) return failedOutcome(`The script was not started: ${connections.error}`);
    const credentials = await execConnectionEnvironment(connections.value, opened, folder, sandbox.user);
    if ('error' in credentials) return failedOutcome(`The script was not started: ${credentials.error}`);
    let cwd = folder;
    const { checkout } = action.exec;
    if (checkout !== undefined) {
      try {
        cwd = await cloneInSandbox({ ...checkout, url: checkoutUrl(checkout.url) }, sandbox.user, folder, context.signal, context.timeoutMs, opened);
      } catch (error) {
        return failedOutcome(`The script was not started: ${errorText(error)}`);
      }
    }
    const since = Date.now();
    const outcome = scrubSecrets(await runSandboxed(action.exec.script, { ...variables, ...credentials.variables }, context, sandbox.user, { home: folder, cwd }), secrets.values());
    const patterns = (action.exec.artifacts ?? []).map((artifact) => artifact.path);
    if (patterns.length === 0) return outcome;
    // Kept whether the script succeeded or not: a failing run's files are often what explains it.
    const output = { stdout: outcome.result.stdout ?? '', stderr: outcome.result.stderr ?? '' };
    const kept = await collectArtifacts(patterns, cwd, { uid: sandbox.user.uid, since, output }, secrets.values());
    return {
      ...outcome,
      ...(kept.artifacts.length === 0 ? {} : { artifacts: kept.artifacts }),
      result: { ...outcome.result, ...(kept.notes.length === 0 ? {} : { artifactNotes: kept.notes }) },
    };
  } finally {
    await removeAsUser(folder, sandbox.user);
  }
};
