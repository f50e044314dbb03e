import type { Environment } from '@marcbachmann/cel-js/evaluator';
import { createCelEnvironment, describeCelError, runWithinBudget } from '../../../platform/cel/cel-environment';
import { fromCel, toCel } from '../../../platform/cel/cel-values';

/**
 * The CEL of scraper transforms (config-db's `expr`, selectors, filters): the server's CEL (platform/cel, with its
 * function library and `toJSON()`), one environment per kind of expression declaring exactly the variables config-db
 * gives that expression, so a misspelt variable or a function this server lacks (gomplate's `jsonpath`, …) is refused at
 * save instead of failing every run. Each evaluation runs under a wall-clock budget (runWithinBudget), so no
 * expression holds a run past it whatever data it walks.
 */

export type CelKind = 'script' | 'item' | 'change' | 'page' | 'reduce' | 'object';

/** Variables of one config as config-db's ScrapeResult.AsMap names them. */
const ITEM_VARIABLES = ['config', 'id', 'name', 'config_type', 'config_class', 'description', 'status', 'health', 'labels', 'tags', 'source', 'format'];
/** Variables of one change (ChangeResult.AsMap, `change` and `patch`) plus the config it belongs to (transform.ts). */
const CHANGE_VARIABLES = [
  'change_type',
  'action',
  'severity',
  'summary',
  'source',
  'details',
  'external_id',
  'external_change_id',
  'config_type',
  'created_at',
  'created_by',
  'patches',
  'diff',
  'change',
  'patch',
  'config',
  'config_item',
  'name',
  'config_class',
  'labels',
  'tags',
];

const VARIABLES: Readonly<Record<CelKind, readonly string[]>> = {
  script: ['config'],
  item: ITEM_VARIABLES,
  change: CHANGE_VARIABLES,
  // An http source's pagination (config-db's): the answer a page got, and the pages merged so far.
  page: ['response'],
  reduce: ['acc', 'page'],
  // A kubernetes source's `relationships` lookups: the object's metadata and spec, as config-db gives them.
  object: ['metadata', 'spec'],
};

/** A filter or selector judges one config; a script rewrites a whole document, so it may take longer. */
const CEL_BUDGET_MS: Readonly<Record<CelKind, number>> = { script: 10_000, item: 1000, change: 1000, page: 1000, reduce: 10_000, object: 1000 };

function environment(kind: CelKind): Environment {
  const env = createCelEnvironment();
  for (const name of VARIABLES[kind]) env.registerVariable(name, 'dyn');
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

/**
 * Whether the expression reads `type` as if it were a variable: not a call `type(x)`, not a field `.type`, and not in
 * quoted text. Neither CEL library has such a variable: `type` names the type of types, so `type == 'X'` fails to type
 * check in config-db (cel-go, whose ScrapeResult.AsMap gives no `type`) as it does here.
 */
function readsTypeAsVariable(expression: string): boolean {
  const unquoted = expression.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, '""');
  return /(?:^|[^.\w])type\b(?!\s*\()/.test(unquoted);
}

function explained(kind: CelKind, expression: string, problem: string): string {
  if (!readsTypeAsVariable(expression)) return problem;
  const instead = VARIABLES[kind].includes('config_type') ? "config_type for the config's type, config.type for a field of its content" : `one of ${VARIABLES[kind].join(', ')}`;
  return `${problem} (\`type\` is CEL's type of types, not a variable, here and in config-db alike: write ${instead})`;
}

/** Why the expression cannot run here, or null. `bool` asks that it can return a boolean (filters, selectors). */
export function celProblem(kind: CelKind, expression: string, bool: boolean): string | null {
  if (expression.trim() === '') return 'is empty';
  let result: ReturnType<Environment['check']>;
  try {
    result = environmentOf(kind).check(expression);
  } catch (error) {
    return explained(kind, expression, describeCelError(error));
  }
  if (!result.valid) return explained(kind, expression, describeCelError(result.error));
  if (bool && result.type !== 'bool' && result.type !== 'dyn') return `must return a bool, not ${result.type ?? 'nothing'}`;
  return null;
}

export class CelEvaluationError extends Error {
  constructor(expression: string, cause: unknown) {
    super(`CEL '${expression.length > 80 ? `${expression.slice(0, 80)}…` : expression}' failed: ${describeCelError(cause)}`);
    this.name = 'CelEvaluationError';
  }
}

/** The expression's value as plain JSON; a failure is a CelEvaluationError naming the expression. */
export function evaluateCel(kind: CelKind, expression: string, variables: Readonly<Record<string, unknown>>): unknown {
  const scope = Object.fromEntries(VARIABLES[kind].map((name) => [name, toCel(variables[name] ?? null)]));
  try {
    return fromCel(runWithinBudget(() => environmentOf(kind).evaluate(expression, scope) as unknown, CEL_BUDGET_MS[kind]));
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
