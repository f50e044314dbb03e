import { existsSync } from 'node:fs';
import path from 'node:path';
import { scriptInterpreterProblem, shebangOf, type ScriptInterpreterKind } from '@opsdeck/shared';

/**
 * The program that runs a script of an exec check, exec scraper or exec playbook action: bash, unless the script's
 * first line is a `#!` line naming another interpreter, which Mission Control (duty's shell package) then runs it with.
 * Before this, every script went to bash, so a `#!/usr/bin/env python3` script was read by bash and failed on its first
 * Python line. The interpreter runs in the same sandbox as bash would; the `#!` line itself is not part of what it is
 * given, as duty drops it too.
 */

export interface ScriptCommand {
  /** The program and its arguments, the script's text among them. */
  command: string[];
  kind: ScriptInterpreterKind;
  /** The interpreter as the `#!` line names it (a path, or a name looked up on PATH). */
  interpreter: string;
}

export class ScriptInterpreterError extends Error {}

/** Arguments that would make the interpreter read something other than the script, dropped from a `#!` line. */
const SCRIPT_SOURCE_FLAGS = new Set(['-c', '-e', '--eval', '-Command', '-File', '-EncodedCommand']);

export function scriptCommand(script: string): ScriptCommand {
  const problem = scriptInterpreterProblem(script);
  if (problem !== null) throw new ScriptInterpreterError(`The script was not started: ${problem}`);
  const shebang = shebangOf(script);
  if (shebang === null || shebang.kind === null) return { command: ['/bin/bash', '-c', script], kind: 'shell', interpreter: '/bin/bash' };
  const newline = script.indexOf('\n');
  const body = newline === -1 ? '' : script.slice(newline + 1);
  const args = shebang.args.filter((arg) => !SCRIPT_SOURCE_FLAGS.has(arg));
  const { interpreter, kind } = shebang;
  switch (kind) {
    case 'shell':
    case 'python':
      return { command: [interpreter, ...args, '-c', body], kind, interpreter };
    case 'node':
      return { command: [interpreter, ...args, '-e', body], kind, interpreter };
    case 'pwsh':
      return { command: [interpreter, '-NoProfile', '-NonInteractive', ...args, '-Command', body], kind, interpreter };
  }
}

/**
 * Why the interpreter cannot start here (not installed where the sandbox looks), in a sentence, or null: said before
 * the run rather than left to the sandbox's own "failed to execute" line.
 */
export function missingInterpreter(command: ScriptCommand, searchPath: string): string | null {
  const { interpreter } = command;
  if (interpreter.includes('/')) return existsSync(interpreter) ? null : `The script was not started: ${interpreter}, which its #! line names, is not installed on this server`;
  const found = searchPath.split(':').some((folder) => folder !== '' && existsSync(path.join(folder, interpreter)));
  return found ? null : `The script was not started: ${interpreter}, which its #! line names, is not installed on this server (looked in ${searchPath})`;
}

/**
 * The command for a run of `script`, or why it cannot start: an interpreter this server does not run (a script saved
 * before the rule), or one not installed where the sandbox looks (its PATH: the run's own, else the sandbox's).
 */
export function commandForRun(script: string, variables: Readonly<Record<string, string>>, sandboxPath: string): { command: string[] } | { error: string } {
  let command: ScriptCommand;
  try {
    command = scriptCommand(script);
  } catch (error) {
    if (error instanceof ScriptInterpreterError) return { error: error.message };
    throw error;
  }
  const missing = command.kind === 'shell' && command.interpreter === '/bin/bash' ? null : missingInterpreter(command, variables.PATH ?? sandboxPath);
  return missing === null ? { command: command.command } : { error: missing };
}
