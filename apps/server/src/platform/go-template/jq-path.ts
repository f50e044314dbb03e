/**
 * gomplate's `jq` for the expressions Mission Control's templates and config-db's change rules write: paths (`.a.b`,
 * `.["a b"]`, `.[0]`, `.[-1]`), iteration (`.[]`), `?` after a step, `|` between paths, `select(path == literal)` (or
 * `!=`, or a bare path for truthiness) and `try` before a path. A jq program can do far more (functions, arithmetic,
 * object construction, recursion); rather than run a language of its own inside every template, anything else is
 * refused by name, so a template never renders a value the expression did not ask for.
 */

/** Thrown for an expression this reader refuses or a path that cannot be read; templates report it as their own error. */
export class JqPathError extends Error {}

type Step =
  | { kind: 'field'; name: string; optional: boolean }
  | { kind: 'index'; at: number; optional: boolean }
  | { kind: 'each'; optional: boolean }
  | { kind: 'select'; path: Step[]; op: '==' | '!=' | null; value: unknown };

/** One element of the pipeline; under `try` an error of its steps drops that value instead of failing the whole. */
interface Stage {
  steps: Step[];
  tried: boolean;
}

const SUPPORTED =
  'jq here reads paths: ., .a.b, .["a b"], .[0], .[-1], .[], a ? after a step, | between paths, select(path == literal) or != or a bare path, and try before a path';

function unsupported(expression: string, at: number): never {
  const rest = expression.slice(at).trim();
  throw new JqPathError(`jq ${JSON.stringify(expression)}: ${JSON.stringify(rest.slice(0, 30))} is not supported by this server (${SUPPORTED})`);
}

/** One path of the pipeline, as its steps. */
function parsePath(expression: string, start: number, end: number): Step[] {
  const steps: Step[] = [];
  let i = start;
  const skipSpace = (): void => {
    while (i < end && /\s/.test(expression[i] ?? '')) i += 1;
  };
  const optional = (): boolean => {
    skipSpace();
    if (expression[i] !== '?') return false;
    i += 1;
    return true;
  };
  skipSpace();
  const identifier = /^[A-Za-z_][A-Za-z0-9_]*/;
  if (/^select\s*\(/.test(expression.slice(i, end))) {
    const open = expression.indexOf('(', i);
    const close = closingParen(expression, open, end);
    steps.push(parseSelect(expression, open + 1, close));
    i = close + 1;
  } else {
    if (expression[i] !== '.') unsupported(expression, i);
    i += 1;
    const first = identifier.exec(expression.slice(i, end));
    if (first !== null) {
      i += first[0].length;
      steps.push({ kind: 'field', name: first[0], optional: optional() });
    }
  }
  for (;;) {
    skipSpace();
    if (i >= end) return steps;
    const char = expression[i];
    if (char === '.') {
      const name = identifier.exec(expression.slice(i + 1, end));
      if (name === null) {
        // `.a.["b"]` is jq's spelling of `.a["b"]`.
        if (expression[i + 1] === '[') {
          i += 1;
          continue;
        }
        unsupported(expression, i);
      }
      i += 1 + name[0].length;
      steps.push({ kind: 'field', name: name[0], optional: optional() });
      continue;
    }
    if (char === '[') {
      const close = expression.indexOf(']', i);
      if (close === -1 || close > end) unsupported(expression, i);
      const inside = expression.slice(i + 1, close).trim();
      i = close + 1;
      if (inside === '') steps.push({ kind: 'each', optional: optional() });
      else if (/^-?\d+$/.test(inside)) steps.push({ kind: 'index', at: Number(inside), optional: optional() });
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inside)) steps.push({ kind: 'field', name: JSON.parse(inside) as string, optional: optional() });
      else unsupported(expression, close - inside.length - 1);
      continue;
    }
    unsupported(expression, i);
  }
}

/** The positions from `start` to `end` (exclusive) that lie outside double-quoted text, with its escapes. */
function* unquoted(expression: string, start: number, end: number): Generator<number> {
  let quoted = false;
  for (let i = start; i < end; i += 1) {
    const char = expression[i];
    if (quoted) {
      if (char === '\\') i += 1;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else yield i;
  }
}

/** The index of the `)` closing the `(` at `open`, before `end`, outside quoted text. */
function closingParen(expression: string, open: number, end: number): number {
  let depth = 0;
  for (const i of unquoted(expression, open, end)) {
    if (expression[i] === '(') depth += 1;
    else if (expression[i] === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return unsupported(expression, open);
}

/** The position of a top-level `==` or `!=` between `start` and `end`, outside quoted text, or -1. */
function comparison(expression: string, start: number, end: number): number {
  for (const i of unquoted(expression, start, end - 1)) {
    if ((expression[i] === '=' || expression[i] === '!') && expression[i + 1] === '=') return i;
  }
  return -1;
}

/** `select(…)` between `start` and `end`: a path, then optionally `==` or `!=` and a JSON literal. */
function parseSelect(expression: string, start: number, end: number): Step {
  const at = comparison(expression, start, end);
  if (at === -1) return { kind: 'select', path: parsePath(expression, start, end), op: null, value: null };
  const literal = expression.slice(at + 2, end).trim();
  let value: unknown;
  try {
    value = JSON.parse(literal);
  } catch {
    unsupported(expression, at + 2);
  }
  if (typeof value === 'object' && value !== null) unsupported(expression, at + 2);
  return { kind: 'select', path: parsePath(expression, start, at), op: expression[at] === '!' ? '!=' : '==', value };
}

/** The pipeline's stages, split at the `|` outside quoted keys and parentheses. */
function pipeline(expression: string): Stage[] {
  const stages: Stage[] = [];
  let start = 0;
  let depth = 0;
  const cut = (at: number): void => {
    const tried = /^\s*try\s/.exec(expression.slice(start, at));
    stages.push({ steps: parsePath(expression, start + (tried?.[0].length ?? 0), at), tried: tried !== null });
    start = at + 1;
  };
  for (const i of unquoted(expression, 0, expression.length)) {
    const char = expression[i];
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === '|' && depth === 0) cut(i);
  }
  cut(expression.length);
  return stages;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** jq's truth: everything but false and null. */
function truthy(value: unknown): boolean {
  return value !== false && value !== null && value !== undefined;
}

function runSteps(steps: readonly Step[], input: unknown): unknown[] {
  let values = [input];
  for (const step of steps) values = values.flatMap((value) => apply(step, value));
  return values;
}

function apply(step: Step, input: unknown): unknown[] {
  if (step.kind === 'select') {
    const keep = runSteps(step.path, input).some((value) => {
      if (step.op === null) return truthy(value);
      const equal = JSON.stringify(value ?? null) === JSON.stringify(step.value);
      return step.op === '==' ? equal : !equal;
    });
    return keep ? [input] : [];
  }
  if (step.kind === 'field') {
    if (input === null || input === undefined) return [null];
    if (typeof input === 'object' && !Array.isArray(input)) return [Object.hasOwn(input, step.name) ? (input as Record<string, unknown>)[step.name] : null];
    if (step.optional) return [];
    throw new JqPathError(`jq: cannot read field ${JSON.stringify(step.name)} of ${describe(input)}`);
  }
  if (step.kind === 'index') {
    if (input === null || input === undefined) return [null];
    if (Array.isArray(input)) return [input.at(step.at) ?? null];
    if (step.optional) return [];
    throw new JqPathError(`jq: cannot index ${describe(input)} with a number`);
  }
  if (Array.isArray(input)) return input;
  if (typeof input === 'object' && input !== null) return Object.values(input);
  if (step.optional) return [];
  throw new JqPathError(`jq: cannot iterate over ${describe(input)}`);
}

/** Checks an expression without running it: a template can be refused at save for what it asks. */
export function parseJqPath(expression: string): Stage[] {
  if (expression.trim() === '') unsupported(expression, 0);
  return pipeline(expression);
}

/**
 * Runs `expression` over `input` as gomplate does: a text holding a JSON object is read as that object, and one result
 * is returned as itself, several (or none) as a list.
 */
export function runJqPath(expression: string, input: unknown): unknown {
  let values: unknown[] = [readInput(input)];
  for (const stage of parseJqPath(expression)) {
    values = values.flatMap((value) => {
      if (!stage.tried) return runSteps(stage.steps, value);
      try {
        return runSteps(stage.steps, value);
      } catch (error) {
        if (error instanceof JqPathError) return [];
        throw error;
      }
    });
  }
  return values.length === 1 ? values[0] : values;
}

function readInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    const parsed: unknown = JSON.parse(input);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : input;
  } catch {
    return input;
  }
}
