/**
 * gomplate's `jq` for the expressions Mission Control's templates write: paths (`.a.b`, `.["a b"]`, `.[0]`, `.[-1]`),
 * iteration (`.[]`), `?` after a step and `|` between paths. A jq program can do far more (functions, arithmetic,
 * object construction, recursion); rather than run a language of its own inside every template, anything beyond a path
 * is refused by name, so a template never renders a value the expression did not ask for.
 */

/** Thrown for an expression this reader refuses or a path that cannot be read; templates report it as their own error. */
export class JqPathError extends Error {}

type Step = { kind: 'field'; name: string; optional: boolean } | { kind: 'index'; at: number; optional: boolean } | { kind: 'each'; optional: boolean };

const SUPPORTED = 'jq here reads paths: ., .a.b, .["a b"], .[0], .[-1], .[], a ? after a step and | between paths';

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
  if (expression[i] !== '.') unsupported(expression, i);
  i += 1;
  const identifier = /^[A-Za-z_][A-Za-z0-9_]*/;
  const first = identifier.exec(expression.slice(i, end));
  if (first !== null) {
    i += first[0].length;
    steps.push({ kind: 'field', name: first[0], optional: optional() });
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

/** The `|` positions outside quoted keys. */
function pipeline(expression: string): Step[][] {
  const paths: Step[][] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= expression.length; i += 1) {
    const char = expression[i];
    if (quoted) {
      if (char === '\\') i += 1;
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === '|' || i === expression.length) {
      paths.push(parsePath(expression, start, i));
      start = i + 1;
    }
  }
  return paths;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function apply(step: Step, input: unknown): unknown[] {
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
export function parseJqPath(expression: string): Step[][] {
  if (expression.trim() === '') unsupported(expression, 0);
  return pipeline(expression);
}

/**
 * Runs `expression` over `input` as gomplate does: a text holding a JSON object is read as that object, and one result
 * is returned as itself, several (or none) as a list.
 */
export function runJqPath(expression: string, input: unknown): unknown {
  let values: unknown[] = [readInput(input)];
  for (const path of parseJqPath(expression)) {
    for (const step of path) values = values.flatMap((value) => apply(step, value));
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
