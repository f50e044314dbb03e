import { spawn } from 'node:child_process';
import { chown, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ExecCheckSpec } from '@opsdeck/shared';
import { currentSandbox, removeAsUser } from '../exec-host';
import { execLimits, PRLIMIT_PATH, prlimitArguments, sandboxEnvironment, type SandboxUser } from '../exec-sandbox';
import { failed, withThreshold, type CheckerContext, type CheckOutcome } from './checker';

/** Output kept per stream; the rest is dropped and the result says so. */
export const EXEC_OUTPUT_CAP_BYTES = 64 * 1024;

interface Captured {
  text: string;
  truncated: boolean;
}

function capture(stream: NodeJS.ReadableStream): Captured {
  const captured: Captured = { text: '', truncated: false };
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (captured.truncated) return;
    const room = EXEC_OUTPUT_CAP_BYTES - size;
    if (chunk.length > room) {
      captured.text += chunk.subarray(0, room).toString('utf8');
      captured.truncated = true;
      size = EXEC_OUTPUT_CAP_BYTES;
      return;
    }
    captured.text += chunk.toString('utf8');
    size += chunk.length;
  });
  return captured;
}

/**
 * Runs the script with bash as the sandbox user (exec-sandbox.ts, ADR 0042): in a fresh private folder, with a clean
 * environment and bounded resources, in its own process group so a timeout kills everything it started, not only
 * the shell. Passes on exit code 0.
 */
export async function runExecCheck(spec: ExecCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const sandbox = currentSandbox();
  if (sandbox.kind === 'refuse') return failed(sandbox.reason);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-exec-'));
  try {
    await chown(folder, sandbox.user.uid, sandbox.user.gid);
    return await runSandboxed(spec, context, sandbox.user, folder);
  } finally {
    await removeAsUser(folder, sandbox.user);
  }
}

async function runSandboxed(spec: ExecCheckSpec, context: CheckerContext, user: SandboxUser, folder: string): Promise<CheckOutcome> {
  const started = performance.now();
  const child = spawn(PRLIMIT_PATH, [...prlimitArguments(execLimits(context.timeoutMs)), '--', '/bin/bash', '-c', spec.script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: folder,
    uid: user.uid,
    gid: user.gid,
    env: sandboxEnvironment(folder, spec.env),
  });
  const stdout = capture(child.stdout);
  const stderr = capture(child.stderr);
  let timedOut = false;
  const kill = (): void => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, context.timeoutMs);
  const onAbort = (): void => kill();
  context.signal.addEventListener('abort', onAbort, { once: true });
  // Aborted while the folder was being prepared: the listener above will not fire.
  if (context.signal.aborted) kill();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode));
  }).finally(() => {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
  });
  const durationMs = Math.round(performance.now() - started);
  const details = { exitCode: code, stdout: stdout.text, stderr: stderr.text, truncated: stdout.truncated || stderr.truncated };
  const out = stdout.text.trim();
  // As duty's shell.ExecDetails: output trimmed, -1 for a script killed before it exited.
  const data = { results: { stdout: out, stderr: stderr.text.trim(), exitCode: code ?? -1, path: '/bin/bash', args: ['-c', spec.script] } };
  if (timedOut) return { ...failed(`The script did not finish within ${context.timeoutMs}ms and was killed`, details), durationMs, data };
  if (code !== 0) {
    const reason = stderr.text.trim() || out || 'no output';
    return { pass: false, message: out.slice(0, 4000), error: `exit code ${String(code)}: ${reason.slice(0, 4000)}`, details, durationMs, data };
  }
  return { ...withThreshold({ pass: true, message: out.slice(0, 4000), details }, durationMs, spec.thresholdMillis), durationMs, data };
}
