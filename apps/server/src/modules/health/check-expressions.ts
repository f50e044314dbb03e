import { z } from 'zod';
import { CHECK_METRIC_TYPES, checkMetricSchema, type CheckMetricSpec } from '@opsdeck/shared';
import type { MetricSample } from '../../platform/check-metrics';
import { createCelEnvironment, describeCelError, runWithinBudget } from '../../platform/cel/cel-environment';
import { celToText, fromCel, toCel } from '../../platform/cel/cel-values';
import { runSandboxedJavaScript } from '../../platform/javascript/sandboxed-javascript';
import { renderCheckTemplate } from './check-template';
import { NO_LAST_RESULT, type LastResult } from './last-result';

/**
 * A check's `test`, `display` and `transform` as canary-checker runs them (checks/runchecks.go, checks/common.go):
 * the checker runs, then `transform` may rewrite its result or fan it out into several checks, then `display` sets the
 * message and `test` may fail it. An expression that cannot be evaluated fails the check with the evaluation error;
 * nothing here ever turns a failed check into a passing one except a transform that says `pass: true`, as there.
 */

/** Every expression of one check run shares this wall-clock budget (runWithinBudget stops it when spent). */
export const EXPRESSION_BUDGET_MS = 250;
/** A transform may fan out into at most this many checks; more is an error, not a silent cut. */
export const MAX_TRANSFORMED_CHECKS = 500;
const MAX_COMPILED = 1000;

const templateSchema = z.looseObject({
  expr: z.string().optional(),
  template: z.string().optional(),
  jsonPath: z.string().optional(),
  javascript: z.string().optional(),
});
const expressionFieldsSchema = z.looseObject({
  name: z.string().optional(),
  test: templateSchema.optional(),
  display: templateSchema.optional(),
  transform: templateSchema.optional(),
  markFailOnEmpty: z.boolean().optional(),
  metrics: z.array(checkMetricSchema).optional(),
});

type Field = 'test' | 'display' | 'transform';
interface Expression {
  field: Field;
  kind: 'expr' | 'template' | 'javascript';
  text: string;
}

export interface CheckExpressions {
  test: Expression | null;
  display: Expression | null;
  transform: Expression | null;
  markFailOnEmpty: boolean;
  /** canary-checker's `metrics`: evaluated after test, display and transform, over the same variables. */
  metrics: readonly CheckMetricSpec[];
}

/** The part of a check's result that expressions read and change (run-check's CheckResult has this shape). */
export interface JudgedResult {
  pass: boolean;
  durationMs: number;
  message: string;
  error: string | null;
  details: Record<string, unknown> | null;
}

/** One check a transform fanned out into, recorded under the canary by its name. */
export interface TransformedCheck {
  name: string;
  type: string;
  description: string | null;
  icon: string | null;
  labels: Record<string, string>;
  pass: boolean;
  message: string;
  error: string | null;
  details: Record<string, unknown> | null;
  durationMs: number;
}

/** Who the expressions run for: canary-checker's `canary` and `check` variables. */
export interface ExpressionScope {
  type: string;
  canary: { name: string; namespace: string; labels: Record<string, string>; id: string };
  check: { name: string; id: string; description: string; labels: Record<string, string>; endpoint: string };
  /** canary-checker's `last_result()` (CEL) and `last_result` (Go templates): the check's previous run. */
  lastResult?: LastResult;
}

export interface JudgedOutcome<R extends JudgedResult> {
  result: R;
  /** The checks a fan-out transform returned (possibly none); null when the check has no such transform or it failed. */
  transformed: TransformedCheck[] | null;
  /** What the check's `metrics` and its transform's `metrics` gave this run, for the process to export. */
  metrics: MetricSample[];
}

class UnsupportedField extends Error {}

/** Reads the expression fields of a stored check spec; a field this server cannot run is an error naming it. */
export function readCheckExpressions(spec: Record<string, unknown>): CheckExpressions | { error: string } {
  const parsed = expressionFieldsSchema.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `Invalid check spec: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
  }
  const pick = (field: Field): Expression | null => {
    const template = parsed.data[field];
    if (template === undefined) return null;
    if ((template.jsonPath ?? '') !== '') throw new UnsupportedField(`${field}.jsonPath is not run by this server; write ${field}.expr (CEL) instead`);
    // gomplate's order puts a script first when several are set.
    if ((template.javascript ?? '').trim() !== '') return { field, kind: 'javascript', text: template.javascript ?? '' };
    if ((template.expr ?? '').trim() !== '') return { field, kind: 'expr', text: template.expr ?? '' };
    if ((template.template ?? '') !== '') return { field, kind: 'template', text: template.template ?? '' };
    return null;
  };
  try {
    return {
      test: pick('test'),
      display: pick('display'),
      transform: pick('transform'),
      markFailOnEmpty: parsed.data.markFailOnEmpty ?? false,
      metrics: parsed.data.metrics ?? [],
    };
  } catch (error) {
    if (error instanceof UnsupportedField) return { error: error.message };
    throw error;
  }
}

export function hasExpressions(expressions: CheckExpressions): boolean {
  return expressions.test !== null || expressions.display !== null || expressions.transform !== null || expressions.metrics.length > 0;
}

/** The previous run of the check being judged (set by applyCheckExpressions; evaluation is synchronous). */
let currentLastResult: LastResult = NO_LAST_RESULT;

const environment = createCelEnvironment({ unlistedVariablesAreDyn: true }).registerFunction('last_result(): dyn', () => toCel(currentLastResult));
type Compiled = ReturnType<typeof environment.parse>;
const compiled = new Map<string, Compiled>();
const shapes = new Map<string, Shape>();

function compile(text: string): Compiled {
  let parsed = compiled.get(text);
  if (parsed === undefined) {
    parsed = environment.parse(text);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(text, parsed);
  }
  return parsed;
}

function cachedShape(text: string): Shape {
  let shape = shapes.get(text);
  if (shape === undefined) {
    shape = shapeOf(compile(text).ast);
    if (shapes.size >= MAX_COMPILED) shapes.clear();
    shapes.set(text, shape);
  }
  return shape;
}

/** Why a display (`{expr | template | javascript}`) cannot be stored, or null: for a topology's configLookup. */
export function displayProblem(value: unknown): string | null {
  const parsed = templateSchema.safeParse(value);
  if (!parsed.success) return 'must be {expr}, {template} or {javascript}';
  const { expr, template, javascript, jsonPath, ...other } = parsed.data;
  const unknown = Object.keys(other);
  if (unknown.length > 0) return `${unknown.join(', ')} is not a form of display: write expr (CEL), template (Go template) or javascript`;
  if ((jsonPath ?? '') !== '') return 'jsonPath is not run by this server: write expr (CEL), template or javascript';
  const given = [expr, template, javascript].filter((form) => (form ?? '').trim() !== '');
  if (given.length !== 1) return 'give exactly one of expr, template or javascript';
  return (expr ?? '').trim() === '' ? null : checkExpressionSyntax(expr ?? '');
}

/**
 * One display over plain variables, as text, under the check expression budget: what a topology's configLookup shows
 * (canary-checker renders it the same way). Throws with the evaluation error.
 */
export function displayText(value: unknown, variables: Record<string, unknown>, budgetMs: number = EXPRESSION_BUDGET_MS): string {
  const parsed = templateSchema.parse(value);
  const expression: Expression =
    (parsed.javascript ?? '').trim() !== ''
      ? { field: 'display', kind: 'javascript', text: parsed.javascript ?? '' }
      : (parsed.expr ?? '').trim() !== ''
        ? { field: 'display', kind: 'expr', text: parsed.expr ?? '' }
        : { field: 'display', kind: 'template', text: parsed.template ?? '' };
  javascriptDeadline = Date.now() + budgetMs - JAVASCRIPT_MARGIN_MS;
  return celToText(runWithinBudget(() => evaluate(expression, toCel(variables) as Record<string, unknown>, variables), budgetMs));
}

/** Why an expression is not valid CEL, or null: for callers that check expressions before they are stored. */
export function checkExpressionSyntax(text: string): string | null {
  try {
    compile(text);
    return null;
  } catch (error) {
    return describeCelError(error);
  }
}

class ExpressionError extends Error {}

/** A sandboxed script stops itself this long before the run's budget ends, so the watchdog never stops it part-way. */
const JAVASCRIPT_MARGIN_MS = 20;
/** When the expressions of the run being judged must be done (set by applyCheckExpressions; evaluation is synchronous). */
let javascriptDeadline = 0;

function evaluate(expression: Expression, celVariables: Record<string, unknown>, plainVariables: Record<string, unknown>): unknown {
  try {
    if (expression.kind === 'template') return renderCheckTemplate(expression.text, plainVariables, currentLastResult);
    if (expression.kind === 'javascript') return runSandboxedJavaScript(expression.text, plainVariables, { timeoutMs: Math.max(1, javascriptDeadline - Date.now()) });
    return compile(expression.text)(celVariables);
  } catch (error) {
    throw new ExpressionError(`${expression.field}.${expression.kind}: ${describeCelError(error)}`);
  }
}

function failWith<R extends JudgedResult>(result: R, message: string): R {
  return { ...result, pass: false, error: result.error === null || result.error === '' ? message : `${result.error}, ${message}` };
}

/** canary-checker's message for a test that returned false: an exec check's output, else "test failed". */
function testFailureMessage(scope: ExpressionScope, data: Record<string, unknown>): string {
  const results = data.results;
  if (scope.type === 'exec' && typeof results === 'object' && results !== null) {
    const { stdout, stderr, exitCode } = results as { stdout?: unknown; stderr?: unknown; exitCode?: unknown };
    const output = `${typeof stderr === 'string' ? stderr : ''} ${typeof stdout === 'string' ? stdout : ''}`.trim();
    return output !== '' ? output : `exit code ${String(exitCode)}`;
  }
  return 'test failed';
}

function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false|t|f|1|0)$/i.test(value.trim())) return /^(true|t|1)$/i.test(value.trim());
  return null;
}

const labelValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const transformedSchema = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), labelValue.nullable()).optional(),
  pass: z.boolean().optional(),
  invalid: z.boolean().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
  detail: z.unknown().optional(),
  duration: z.number().optional(),
  metrics: z.array(z.unknown()).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
type TransformedEntry = z.infer<typeof transformedSchema>;

function transformedEntries(value: unknown): TransformedEntry[] {
  let plain = fromCel(value);
  if (typeof plain === 'string') {
    try {
      plain = JSON.parse(plain) as unknown;
    } catch (error) {
      throw new ExpressionError(`the transform did not return JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (plain === null) return [];
  const list: unknown[] = Array.isArray(plain) ? plain : [plain];
  const first: unknown = list[0];
  if (typeof first === 'object' && first !== null && 'spec' in first) {
    throw new ExpressionError('the transform returned a canary (an entry with spec); creating canaries from a transform is not run by this server');
  }
  return list.map((entry, index) => {
    const parsed = transformedSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ExpressionError(`transform result ${index}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not a check result'}`.trim());
    }
    return parsed.data;
  });
}

function detailsOf(detail: unknown): Record<string, unknown> | null {
  if (detail === undefined || detail === null || detail === '$delete') return null;
  return typeof detail === 'object' && !Array.isArray(detail) ? (detail as Record<string, unknown>) : { value: detail };
}

function labelsOf(labels: TransformedEntry['labels']): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** A metric a transform returns (canary-checker's pkg.Metric): labels as a map, the value already a number. */
const transformedMetricSchema = z.looseObject({
  name: checkMetricSchema.shape.name,
  type: z.enum(CHECK_METRIC_TYPES),
  value: z.union([z.number(), z.string().regex(/^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/).transform(Number)]),
  labels: z.record(z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/), labelValue).optional(),
});

function transformedMetrics(entries: readonly TransformedEntry[]): MetricSample[] {
  return entries.flatMap((entry, index) =>
    (entry.metrics ?? []).map((metric, position) => {
      const parsed = transformedMetricSchema.safeParse(metric);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ExpressionError(`transform result ${index} metrics[${position}]: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not a metric'}`.trim());
      }
      return { name: parsed.data.name, type: parsed.data.type, value: parsed.data.value, labels: parsed.data.labels ?? {} };
    }),
  );
}

/** A metric's value as a number: canary-checker parses the expression's text as a float. */
function metricValue(value: unknown): number {
  const plain = fromCel(value);
  if (typeof plain === 'number') return plain;
  if (typeof plain === 'boolean') throw new ExpressionError(`${String(plain)} is not a number`);
  const text = typeof plain === 'string' ? plain.trim() : JSON.stringify(plain);
  const parsed = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(parsed)) throw new ExpressionError(`${text} is not a number`);
  return parsed;
}

/** The check's own `metrics`, each value and valueExpr evaluated as CEL over the result variables. */
function specMetrics(metrics: readonly CheckMetricSpec[], cel: Record<string, unknown>): MetricSample[] {
  return metrics.map((metric, index) => {
    const at = `metrics[${index}] ${metric.name}`;
    const run = (text: string, what: string): unknown => {
      try {
        return compile(text)(cel);
      } catch (error) {
        throw new ExpressionError(`${at}: ${what}: ${describeCelError(error)}`);
      }
    };
    const labels: Record<string, string> = {};
    for (const label of metric.labels ?? []) {
      labels[label.name] = label.valueExpr !== undefined && label.valueExpr !== '' ? celToText(run(label.valueExpr, `labels ${label.name}`)) : (label.value ?? '');
    }
    let value: number;
    try {
      value = metricValue(run(metric.value, 'value'));
    } catch (error) {
      throw error instanceof ExpressionError && error.message.startsWith(at) ? error : new ExpressionError(`${at}: value: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { name: metric.name, type: metric.type, value, labels };
  });
}

/** A single unnamed entry rewrites the check's own result (canary-checker's in-line transformation). */
function mergeInline<R extends JudgedResult>(result: R, entry: TransformedEntry): R {
  let merged: R = { ...result };
  if (entry.pass !== undefined) merged = { ...merged, pass: entry.pass, error: entry.pass ? null : merged.error };
  if (entry.invalid === true) merged = { ...merged, pass: false };
  if (entry.duration !== undefined) merged = { ...merged, durationMs: Math.round(entry.duration) };
  if ((entry.message ?? '') !== '') merged = { ...merged, message: entry.message ?? '' };
  if ((entry.error ?? '') !== '') merged = { ...merged, error: entry.error ?? null };
  if (entry.detail !== undefined) merged = { ...merged, details: detailsOf(entry.detail) };
  if (!merged.pass && (merged.error ?? '') === '') merged = { ...merged, error: merged.message || 'the transform marked the check failed' };
  return merged;
}

function fanOut(entries: TransformedEntry[], scope: ExpressionScope): TransformedCheck[] {
  if (entries.length > MAX_TRANSFORMED_CHECKS) {
    throw new ExpressionError(`the transform returned ${entries.length} results; at most ${MAX_TRANSFORMED_CHECKS} checks are kept per check`);
  }
  const seen = new Set<string>();
  return entries.map((entry) => {
    const name = (entry.name ?? '') === '' ? scope.check.name : (entry.name ?? '');
    if (seen.has(name)) throw new ExpressionError(`the transform returned two results named '${name}'`);
    seen.add(name);
    const pass = entry.pass ?? false;
    const message = entry.message ?? '';
    const details = detailsOf(entry.detail);
    return {
      name,
      // Always the parent's type: a transform cannot make, say, an exec check appear under an http check's canary.
      type: scope.type,
      description: (entry.description ?? '') === '' ? scope.check.description || null : (entry.description ?? null),
      icon: entry.icon ?? null,
      labels: labelsOf(entry.labels),
      pass,
      message,
      error: pass ? null : (entry.error ?? '') !== '' ? (entry.error ?? null) : message || 'failed',
      details,
      durationMs: Math.max(0, Math.round(entry.duration ?? 0)),
    };
  });
}

function variablesOf(result: JudgedResult, data: Record<string, unknown>, scope: ExpressionScope): Record<string, unknown> {
  return {
    canary: scope.canary,
    check: scope.check,
    duration: result.durationMs,
    error: result.error ?? '',
    message: result.message,
    pass: result.pass,
    errorType: '',
    ...data,
  };
}

type Judged<R extends JudgedResult> = Omit<JudgedOutcome<R>, 'metrics'> & { fromTransform: MetricSample[] };

function judgeResult<R extends JudgedResult>(
  base: R,
  cel: Record<string, unknown>,
  plain: Record<string, unknown>,
  expressions: CheckExpressions,
  scope: ExpressionScope,
): Judged<R> {
  let result = base;
  let fromTransform: MetricSample[] = [];
  if (expressions.transform !== null) {
    let entries: TransformedEntry[];
    try {
      entries = transformedEntries(evaluate(expressions.transform, cel, plain));
    } catch (error) {
      // As canary-checker: a transform that fails marks the check failed and skips display and test.
      const message = error instanceof Error ? error.message : String(error);
      return { result: failWith(result, `error transforming result: ${message}`), transformed: null, fromTransform };
    }
    if (entries.length === 0) {
      if (expressions.markFailOnEmpty) return { result: failWith(result, 'empty result returned from transformation'), transformed: [], fromTransform };
      return { result, transformed: [], fromTransform };
    }
    const firstName = entries[0]?.name ?? '';
    if (firstName !== '' && firstName !== scope.check.name) {
      try {
        return { result, transformed: fanOut(entries, scope), fromTransform: transformedMetrics(entries) };
      } catch (error) {
        return { result: failWith(result, `error transforming result: ${error instanceof Error ? error.message : String(error)}`), transformed: null, fromTransform };
      }
    }
    if (entries.length > 1) {
      return { result: failWith(result, 'error transforming result: the transformation returned more than 1 entry without a name'), transformed: null, fromTransform };
    }
    const [entry] = entries;
    if (entry !== undefined) {
      try {
        fromTransform = transformedMetrics([entry]);
      } catch (error) {
        return { result: failWith(result, `error transforming result: ${error instanceof Error ? error.message : String(error)}`), transformed: null, fromTransform };
      }
      result = mergeInline(result, entry);
    }
  }
  if (expressions.display !== null) {
    try {
      result = { ...result, message: celToText(evaluate(expressions.display, cel, plain)) };
    } catch (error) {
      result = failWith(result, error instanceof Error ? error.message : String(error));
    }
  }
  if (expressions.test !== null) {
    try {
      const value = evaluate(expressions.test, cel, plain);
      const verdict = asBoolean(value);
      if (verdict === null) result = failWith(result, `test expression did not return a boolean value. got ${celToText(value)}`);
      else if (!verdict) result = failWith(result, testFailureMessage(scope, plain));
    } catch (error) {
      result = failWith(result, error instanceof Error ? error.message : String(error));
    }
  }
  return { result, transformed: null, fromTransform };
}

/** test, display and transform as above, then the check's metrics over the same variables; a metric that fails fails the check. */
function judge<R extends JudgedResult>(base: R, data: Record<string, unknown>, expressions: CheckExpressions, scope: ExpressionScope): JudgedOutcome<R> {
  const plain = variablesOf(base, data, scope);
  const cel = toCel(plain) as Record<string, unknown>;
  const { result, transformed, fromTransform } = judgeResult(base, cel, plain, expressions, scope);
  try {
    return { result, transformed, metrics: [...fromTransform, ...specMetrics(expressions.metrics, cel)] };
  } catch (error) {
    return { result: failWith(result, error instanceof Error ? error.message : String(error)), transformed, metrics: fromTransform };
  }
}

/** Macros that loop over a list or map: nested, their work multiplies. */
const LOOP_MACROS = new Set(['map', 'filter', 'all', 'exists', 'exists_one']);
/**
 * Calls whose time the size of their input does not bound: a regular expression can backtrack on forty characters,
 * `repeat` and `format` build text from little, and `cel.bind` can double a list at every level.
 */
const UNSIZED_CALLS = new Set(['matches', 'repeat', 'format', 'bind']);
/** Estimated steps (AST nodes times the values they may each walk) below which an evaluation takes well under a millisecond or so. */
const DIRECT_WORK = 200_000;

interface Shape {
  nodes: number;
  loopDepth: number;
  unsized: boolean;
}

function isNode(value: unknown): value is { op: string; args: unknown } {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

/** Size, deepest nesting of loop macros, and whether any call is unsized, of a parsed expression. */
function shapeOf(root: unknown): Shape {
  const shape: Shape = { nodes: 0, loopDepth: 0, unsized: false };
  const visit = (value: unknown, depth: number): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth);
      return;
    }
    if (!isNode(value)) return;
    shape.nodes += 1;
    const args = value.args;
    if ((value.op === 'rcall' || value.op === 'call') && Array.isArray(args) && typeof args[0] === 'string') {
      if (UNSIZED_CALLS.has(args[0])) shape.unsized = true;
      if (value.op === 'rcall' && LOOP_MACROS.has(args[0])) {
        // The receiver is evaluated once; the macro's body once per element.
        visit(args[1], depth);
        shape.loopDepth = Math.max(shape.loopDepth, depth + 1);
        visit(args[2], depth + 1);
        return;
      }
    }
    visit(args, depth);
  };
  visit(root, 0);
  return shape;
}

/** How many values (and 64-character pieces of text) an expression could walk, counted up to `limit`. */
function weightOf(value: unknown, limit: number): number {
  let weight = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && weight <= limit) {
    const item = stack.pop();
    weight += 1;
    if (typeof item === 'string') weight += Math.floor(item.length / 64);
    else if (Array.isArray(item)) stack.push(...item);
    else if (item !== null && typeof item === 'object' && !(item instanceof Date) && !(item instanceof Uint8Array)) stack.push(...Object.values(item));
  }
  return weight;
}

/**
 * Whether the evaluation needs the watchdog (and its cost of a fraction of a millisecond): templates, unsized calls,
 * and expressions whose estimated work (nodes × weight of the data, raised to the depth of nested loops) is large.
 * The rest are bounded by their size and run directly.
 */
export function needsBudget(expressions: CheckExpressions, variables: Record<string, unknown>): boolean {
  // A script keeps its own deadline (the sandbox's interrupt), so only CEL and templates decide this.
  const present = [expressions.test, expressions.display, expressions.transform].filter(
    (expression): expression is Expression => expression !== null && expression.kind !== 'javascript',
  );
  if (present.some((expression) => expression.kind === 'template')) return true;
  for (const metric of expressions.metrics) {
    present.push({ field: 'test', kind: 'expr', text: metric.value });
    for (const label of metric.labels ?? []) if (label.valueExpr !== undefined && label.valueExpr !== '') present.push({ field: 'test', kind: 'expr', text: label.valueExpr });
  }
  if (present.length === 0) return false;
  let shape: Shape;
  try {
    shape = present.map((expression) => cachedShape(expression.text)).reduce((a, b) => ({
      nodes: a.nodes + b.nodes,
      loopDepth: Math.max(a.loopDepth, b.loopDepth),
      unsized: a.unsized || b.unsized,
    }));
  } catch {
    // Does not parse: the evaluation fails at once, with its error, wherever it runs.
    return false;
  }
  if (shape.unsized) return true;
  const weight = weightOf(variables, DIRECT_WORK) + shape.nodes;
  return shape.nodes * weight ** Math.max(1, shape.loopDepth) > DIRECT_WORK;
}

/**
 * Applies a check's expressions to what its checker returned, all within one time budget: an expression that runs
 * past it (or cannot be evaluated) fails the check with that reason instead of holding a worker.
 */
export function applyCheckExpressions<R extends JudgedResult>(
  base: R,
  data: Record<string, unknown>,
  expressions: CheckExpressions,
  scope: ExpressionScope,
  budgetMs: number = EXPRESSION_BUDGET_MS,
): JudgedOutcome<R> {
  if (!hasExpressions(expressions)) return { result: base, transformed: null, metrics: [] };
  javascriptDeadline = Date.now() + budgetMs - JAVASCRIPT_MARGIN_MS;
  currentLastResult = scope.lastResult ?? NO_LAST_RESULT;
  try {
    if (!needsBudget(expressions, data)) return judge(base, data, expressions, scope);
    return runWithinBudget(() => judge(base, data, expressions, scope), budgetMs);
  } catch (error) {
    // A stopped evaluation may leave the compiled expression's reused iteration state half-way: compile it afresh next time.
    for (const expression of [expressions.test, expressions.display, expressions.transform]) if (expression !== null) compiled.delete(expression.text);
    for (const metric of expressions.metrics) {
      compiled.delete(metric.value);
      for (const label of metric.labels ?? []) if (label.valueExpr !== undefined) compiled.delete(label.valueExpr);
    }
    return { result: failWith(base, describeCelError(error)), transformed: null, metrics: [] };
  }
}
