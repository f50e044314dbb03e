import { chown, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkoutUrl, type ExecCheckSpec } from '@opsdeck/shared';
import { execConnectionEnvironment } from '../exec-connections';
import { cloneInSandbox, currentSandbox, removeAsUser, runInSandbox, type Checkout } from '../exec-host';
import { SANDBOX_PATH, type SandboxUser } from '../exec-sandbox';
import { commandForRun } from '../script-command';
import { collectArtifacts } from '../exec-artifacts';
import { failed, withThreshold, type CheckerContext, type CheckOutcome } from './checker';

/** Output kept per stream; the rest is dropped and the result says so. */
export const EXEC_OUTPUT_CAP_BYTES = 64 * 1024;

/** canary-checker's checkout URL may leave out the scheme (`github.com/flanksource/duty`): https is meant. */
function checkoutOf(spec: ExecCheckSpec): Checkout | null {
  if (spec.checkout === undefined) return null;
  return { url: checkoutUrl(spec.checkout.url), branch: spec.checkout.branch, depth: spec.checkout.depth, connection: spec.checkout.connection };
}

/**
 * Runs the script with bash as the sandbox user (exec-sandbox.ts, ADR 0042): in a fresh private folder (the clone of
 * `checkout` in it, when given), with a clean environment (plus what its `connections` hand it) and bounded resources, in its own process group so a
 * timeout kills everything it started, not only the shell. Passes on exit code 0.
 */
export async function runExecCheck(spec: ExecCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const sandbox = currentSandbox();
  if (sandbox.kind === 'refuse') return failed(sandbox.reason);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-exec-'));
  try {
    await chown(folder, sandbox.user.uid, sandbox.user.gid);
    const credentials = await execConnectionEnvironment(spec.connections, context.resolveConnection, folder, sandbox.user);
    if ('error' in credentials) return failed(`The script was not started: ${credentials.error}`);
    const checkout = checkoutOf(spec);
    let cwd = folder;
    if (checkout !== null) {
      try {
        cwd = await cloneInSandbox(checkout, sandbox.user, folder, context.signal, context.timeoutMs, context.resolveConnection);
      } catch (error) {
        return failed(error instanceof Error ? error.message : String(error));
      }
    }
    return await runScript(spec, credentials.variables, context, sandbox.user, { home: folder, cwd });
  } finally {
    await removeAsUser(folder, sandbox.user);
  }
}

async function runScript(spec: ExecCheckSpec, credentials: Record<string, string>, context: CheckerContext, user: SandboxUser, where: { home: string; cwd: string }): Promise<CheckOutcome> {
  const since = Date.now();
  const outcome = await judgeRun(spec, credentials, context, user, where);
  if (spec.artifacts === undefined) return outcome;
  // Secrets are scrubbed by the scheduler, which knows every one the run opened; a failing run's files are kept too.
  const output = { stdout: String(outcome.details?.stdout ?? ''), stderr: String(outcome.details?.stderr ?? '') };
  const kept = await collectArtifacts(
    spec.artifacts.map((artifact) => artifact.path),
    where.cwd,
    { uid: user.uid, since, output },
    [],
  );
  return { ...outcome, artifacts: kept.artifacts, details: { ...(outcome.details ?? {}), ...(kept.notes.length === 0 ? {} : { artifactNotes: kept.notes }) } };
}

async function judgeRun(spec: ExecCheckSpec, credentials: Record<string, string>, context: CheckerContext, user: SandboxUser, where: { home: string; cwd: string }): Promise<CheckOutcome> {
  const variables = { ...(spec.env ?? {}), ...credentials };
  const prepared = commandForRun(spec.script, variables, SANDBOX_PATH);
  if ('error' in prepared) return failed(prepared.error);
  const run = await runInSandbox({
    command: prepared.command,
    variables,
    user,
    ...where,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
    outputCap: { stdout: EXEC_OUTPUT_CAP_BYTES, stderr: EXEC_OUTPUT_CAP_BYTES },
    graceMs: 0,
    stopMessages: { timeout: `The script did not finish within ${context.timeoutMs}ms and was killed`, aborted: () => 'The run was stopped while the script ran' },
  });
  const { durationMs, code } = run;
  const details = { exitCode: code, stdout: run.stdout, stderr: run.stderr, truncated: run.stdoutTruncated || run.stderrTruncated };
  const out = run.stdout.trim();
  // As duty's shell.ExecDetails: output trimmed, -1 for a script killed before it exited.
  const data = { results: { stdout: out, stderr: run.stderr.trim(), exitCode: code ?? -1, path: '/bin/bash', args: ['-c', spec.script] } };
  if (run.stopped !== null) return { ...failed(run.stopped, details), durationMs, data };
  if (code !== 0) {
    const reason = run.stderr.trim() || out || 'no output';
    return { pass: false, message: out.slice(0, 4000), error: `exit code ${String(code)}: ${reason.slice(0, 4000)}`, details, durationMs, data };
  }
  return { ...withThreshold({ pass: true, message: out.slice(0, 4000), details }, durationMs, spec.thresholdMillis), durationMs, data };
}
