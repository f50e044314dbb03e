import { Environment } from '@marcbachmann/cel-js/evaluator';

/**
 * The CEL of scraper transforms (config-db's `expr`, selectors, filters): one environment per kind of expression, each
 * declaring exactly the variables config-db gives that expression, so a misspelt variable or a function this server
 * lacks (config-db's `jq`, …) is refused at save instead of failing every run. Parsing is bounded by the limits below
 * and evaluation by the data it walks; the run's timeout bounds the rest (transform.ts checks it between configs).
 */

export type CelKind = 'script' | 'item' | 'change';

/** Variables of one config as config-db's ScrapeResult.AsMap names them. */
const ITEM_VARIABLES = ['config', 'id', 'name', 'config_type', 'config_class', 'description', 'status', 'health', 'labels', 'tags', 'source', 'format'];
/** Variables of one change (ChangeResult.AsMap) plus the config it belongs to. */
const CHANGE_VARIABLES = ['change_type', 'severity', 'summary', 'source', 'details', 'external_id', 'external_change_id', 'config_type', 'config', 'created_at'];

const VARIABLES: Readonly<Record<CelKind, readonly string[]>> = {
  script: ['config'],
  item: ITEM_VARIABLES,
  change: CHANGE_VARIABLES,
};

const LIMITS = { maxAstNodes: 2000, maxDepth: 48, maxListElements: 500, maxMapEntries: 200, maxCallArguments: 8 };

/** CEL values back to JSON: ints come back as bigint and maps may be Map instances. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([key, entry]) => [String(key), plainValue(entry)]));
  if (value instanceof Set) return [...value].map(plainValue);
  if (Array.isArray(value)) return value.map(plainValue);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plainValue(entry)]));
  return value;
}

function environment(kind: CelKind): Environment {
  const env = new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true, limits: LIMITS });
  for (const name of VARIABLES[kind]) env.registerVariable(name, 'dyn');
  // config-db's transforms end in .toJSON(); the run parses the text back, so it is the same list either way.
  env.registerFunction('dyn.toJSON(): string', (value: unknown) => JSON.stringify(plainValue(value)));
  return env;
}

const environments = new Map<CelKind, Environment>();

function environmentOf(kind: CelKind): Environment {
  let env = environments.get(kind);
  if (env === undefined) {
    env = environment(kind);
    environments.set(kind, env);
  }
  return env;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Why the expression cannot run here, or null. `bool` asks that it can return a boolean (filters, selectors). */
export function celProblem(kind: CelKind, expression: string, bool: boolean): string | null {
  if (expression.trim() === '') return 'is empty';
  let result: ReturnType<Environment['check']>;
  try {
    result = environmentOf(kind).check(expression);
  } catch (error) {
    return firstLine(error);
  }
  if (!result.valid) return firstLine(result.error);
  if (bool && result.type !== 'bool' && result.type !== 'dyn') return `must return a bool, not ${result.type ?? 'nothing'}`;
  return null;
}

export class CelEvaluationError extends Error {
  constructor(expression: string, cause: unknown) {
    super(`CEL '${expression.length > 80 ? `${expression.slice(0, 80)}…` : expression}' failed: ${firstLine(cause)}`);
    this.name = 'CelEvaluationError';
  }
}

/** The expression's value as plain JSON; a failure is a CelEvaluationError naming the expression. */
export function evaluateCel(kind: CelKind, expression: string, variables: Readonly<Record<string, unknown>>): unknown {
  const scope = Object.fromEntries(VARIABLES[kind].map((name) => [name, variables[name] ?? null]));
  try {
    return plainValue(environmentOf(kind).evaluate(expression, scope));
  } catch (error) {
    throw new CelEvaluationError(expression, error);
  }
}

/** A filter's answer: true or false, and an error for anything else, since a filter that did not judge never passes. */
export function evaluateCelBool(kind: CelKind, expression: string, variables: Readonly<Record<string, unknown>>): boolean {
  const value = evaluateCel(kind, expression, variables);
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new CelEvaluationError(expression, new Error(`returned ${JSON.stringify(value)}, not a bool`));
}
