/**
 * The interpreter a script's first line names (`#!/usr/bin/env python3`), as Mission Control (duty's shell package)
 * reads it to choose what runs an exec script. Shared so a save refuses an interpreter the server would not run, and
 * the runner (apps/server health/script-command.ts) builds its command from the same reading.
 */

export type ScriptInterpreterKind = 'shell' | 'python' | 'node' | 'pwsh';

const KINDS: Readonly<Record<string, ScriptInterpreterKind>> = {
  bash: 'shell',
  sh: 'shell',
  dash: 'shell',
  ash: 'shell',
  ksh: 'shell',
  zsh: 'shell',
  python: 'python',
  python3: 'python',
  node: 'node',
  pwsh: 'pwsh',
  powershell: 'pwsh',
};

/** What the `#!` lines this server runs may name, for the message that refuses another. */
export const SCRIPT_INTERPRETERS = 'bash, sh (dash, ash, ksh, zsh), python, python3, node, pwsh and powershell';

export interface Shebang {
  /** A path, or a name looked up on PATH (`#!/usr/bin/env name`). */
  interpreter: string;
  args: string[];
  kind: ScriptInterpreterKind | null;
  /** The interpreter's file name, as the line gives it. */
  base: string;
}

/** The script's `#!` line read, or null when it has none (bash runs it). */
export function shebangOf(script: string): Shebang | null {
  const firstLine = script.split('\n', 1)[0] ?? '';
  if (!firstLine.startsWith('#!')) return null;
  const parts = firstLine.slice(2).trim().split(/\s+/).filter((part) => part !== '');
  let [interpreter = '', ...args] = parts;
  let base = interpreter.split('/').at(-1) ?? '';
  // `#!/usr/bin/env python3 -u`: env only looks the interpreter up; env's own options (-S…) are not read.
  if (base === 'env' && args.length > 0 && !(args[0] ?? '').startsWith('-')) {
    interpreter = args[0] ?? '';
    args = args.slice(1);
    base = interpreter.split('/').at(-1) ?? '';
  }
  if (interpreter === '') return null;
  return { interpreter, args, base, kind: KINDS[base] ?? null };
}

/** Why this server would not run the script's `#!` line, or null when it would (or there is none). */
export function scriptInterpreterProblem(script: string): string | null {
  const shebang = shebangOf(script);
  if (shebang === null || shebang.kind !== null) return null;
  return `its #! line names ${shebang.base === '' ? shebang.interpreter : shebang.base}, which this server does not run scripts with: it runs ${SCRIPT_INTERPRETERS}`;
}
