import { Duration, Environment } from '@marcbachmann/cel-js/evaluator';
import { PLAYBOOK_DURATION_PATTERN, parseDurationMs } from '@opsdeck/shared';
import type { ExecAction, HttpAction, PlaybookAction, PlaybookParameter, PlaybookSecretText, PlaybookSpecEnvVar } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { toCel } from '../../platform/cel/cel-values';
import { printTemplateValue, sandboxedLiquid } from '../../platform/sandboxed-liquid';
import { executeGoTemplate, GO_TEMPLATE_HEADER, goPrint, mayHoldGoActions, parseGoTemplate, type DollarActions, type GoParseOptions } from '../../platform/go-template/go-template';
import { lastResult, TEMPLATE_FUNCTION_NAMES, templateFunctions } from './action-functions';
import { TRAVERSE_MAX_ROUNDS, type CatalogTraversal } from './catalog-traverse';
import type { TemplateContext } from './types';
import {
  checkedHeaderValue,
  holdsMarkerCharacters,
  holdsMarkers,
  markValue,
  PlacementError,
  placeInBody,
  placeInShell,
  placeInUrl,
  placeInPowerShell,
  POWERSHELL_INTERPRETERS,
  scriptInterpreter,
} from '../../platform/value-placement';

/**
 * Action fields and parameter defaults are templates in Mission Control's Go template language (`{{.params.x}}`,
 * platform/go-template/) or in Liquid (`{{ params.x }}`, this server's first language); `if` conditions and a `delay`
 * that is not a duration are CEL. All only read the context: no files, no JavaScript, no prototype chain, no
 * environment of the server, and bounded in size and time so a spec cannot stall a worker. Values rendered into code
 * are placed by value-placement.ts so that they can never change it (ADR 0071).
 */

/** Longest rendered value, in characters. */
export const TEMPLATE_OUTPUT_LIMIT = 1_000_000;

/** Nesting of context data handed to templates and conditions; deeper values are cut. */
const CONTEXT_DEPTH_LIMIT = 32;

/** Evaluation steps of one Go template (fields read, functions called, nodes and loop turns). */
const GO_STEP_LIMIT = 200_000;

const liquid = sandboxedLiquid('Playbook templates');

/** The same engine, writing each value as a marker for value-placement.ts to put where it can only be a value. */
const markingLiquid = sandboxedLiquid('Playbook templates');
markingLiquid.options.outputEscape = (value: unknown) => markValue(printTemplateValue(value));
// `| raw` skips the output escape, which here would write a value into code as code.
delete markingLiquid.filters.raw;

/** Mission Control's Go templates write `{{.params.x}}`; in Liquid text the leading dot of such a reference is dropped. */
const GO_STYLE_REFERENCE = /\{\{(-?\s*)\.(?=[A-Za-z_])/g;

/** The variables both dialects read; a Go template reaches them as `.params`, Liquid as `params`. */
const CONTEXT_ROOTS = ['params', 'config', 'component', 'check', 'playbook', 'run', 'user', 'actions', 'env', 'request'] as const;
const LIQUID_ACTION = new RegExp(`\\{\\{-?\\s*(${CONTEXT_ROOTS.join('|')})\\b`);

export type TemplateDialect = 'go' | 'liquid';

/**
 * Which language a text is written in. Liquid (this server's first template language) when it has a `{% %}` tag or
 * an output that starts with a bare variable (`{{ params.x }}`), which Go would read as an unknown function; Mission
 * Control's Go templates (`{{.params.x}}`, `{{ if .y }}`, `{{ lower .x }}`) otherwise.
 */
export function templateDialect(text: string): TemplateDialect {
  // A `# gotemplate:` header is gomplate's: the text is Go, and `{{` may be the script's own text.
  if (text.includes(GO_TEMPLATE_HEADER)) return 'go';
  return text.includes('{%') || LIQUID_ACTION.test(text) ? 'liquid' : 'go';
}

function withoutGoDots(text: string): string {
  return text.replace(GO_STYLE_REFERENCE, '{{$1');
}

/** JSON-like copies of context data: Dates as ISO text, no functions or class instances, bounded depth. */
function plainData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= CONTEXT_DEPTH_LIMIT || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value.map((item) => plainData(item, depth + 1));
  if (ArrayBuffer.isView(value)) return null;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined && typeof item !== 'function')
      .map(([key, item]) => [key, plainData(item, depth + 1)]),
  );
}

function plainMap(value: unknown): Record<string, unknown> {
  const data = plainData(value);
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** What templates and conditions read; the target maps are empty when the run has no such target. */
function scopeOf(ctx: TemplateContext): Scope {
  return {
    params: plainMap(ctx.params),
    config: plainMap(ctx.config),
    component: plainMap(ctx.component),
    check: plainMap(ctx.check),
    playbook: plainMap(ctx.playbook),
    run: plainMap(ctx.run),
    user: plainMap(ctx.user),
    actions: plainMap(ctx.actions),
    env: plainMap(ctx.env),
    request: plainMap(ctx.request),
  };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function templateError(field: string, problem: string): AppError {
  return new AppError(
    400,
    'OD_PLAYBOOK_TEMPLATE',
    `The template of ${field} could not be rendered: ${problem}`,
    field,
    'Templates read params, config, component, check, playbook, run, user, env, actions and request, e.g. {{.params.name}}',
  );
}

type Scope = Record<(typeof CONTEXT_ROOTS)[number], Record<string, unknown>>;

const VALUE_ROOTS: ReadonlySet<string> = new Set(CONTEXT_ROOTS);

/**
 * How a field's Go template is parsed: `$( )` actions as Mission Control reads them (in a shell script only those
 * starting with a field, since `$(command)` is the shell's), and bare context names (`params.x`) as values.
 */
function goOptions(dollar: DollarActions): GoParseOptions {
  return { dollar, valueRoots: VALUE_ROOTS };
}

/** Whether the text holds a `$( )` action for that reading. */
export function holdsDollarActions(text: string, dollar: DollarActions): boolean {
  if (dollar === 'none') return false;
  return dollar === 'all' ? text.includes('$(') : /\$\(-?\s*\.[A-Za-z_]/.test(text);
}

/** Whether the text holds a Go action of either delimiter set for that reading. */
export function holdsGoActions(text: string, dollar: DollarActions): boolean {
  return mayHoldGoActions(text) || holdsDollarActions(text, dollar);
}

/**
 * value: the text is a value and is rendered as it is; code: each `{{ value }}` is left as a marker for
 * value-placement.ts; shell: code, with a final `shellQuote` dropped, since placement quotes the value anyway.
 */
type RenderMode = 'value' | 'code' | 'shell';

const SHELL_QUOTING: ReadonlySet<string> = new Set(['shellQuote', 'strings.ShellQuote']);

/**
 * A Go template as Mission Control runs it (gomplate): missing map keys print `<no value>`, a field of nothing fails,
 * and the result is trimmed of surrounding space.
 */
function renderGo(text: string, scope: Scope, mode: RenderMode, traversal: CatalogTraversal | null): string {
  const template = parseGoTemplate(text, TEMPLATE_FUNCTION_NAMES, goOptions(dollarOf(mode)));
  const output = executeGoTemplate(template, scope, {
    functions: templateFunctions(scope.actions, undefined, traversal),
    ...(mode === 'value' ? {} : { output: (value: unknown) => markValue(goPrint(value)) }),
    ...(mode === 'shell' ? { dropLast: SHELL_QUOTING } : {}),
    maxSteps: GO_STEP_LIMIT,
    maxOutput: TEMPLATE_OUTPUT_LIMIT,
  });
  return output.trim();
}

/**
 * renderGo with the catalog_traverse answers it needs: a render that asked what is not loaded yet (catalog-traverse.ts)
 * is thrown away, whatever it printed or failed on, and made again once those answers are loaded, at most
 * TRAVERSE_MAX_ROUNDS times. Only the last render, which asked nothing new, is kept.
 */
async function renderGoLoaded(text: string, scope: Scope, mode: RenderMode, traversal: CatalogTraversal | null): Promise<string> {
  for (let round = 1; ; round += 1) {
    let rendered: { output: string } | { failure: unknown };
    try {
      rendered = { output: renderGo(text, scope, mode, traversal) };
    } catch (error) {
      rendered = { failure: error };
    }
    if (traversal === null || !traversal.hasPending) {
      if ('failure' in rendered) throw rendered.failure;
      return rendered.output;
    }
    if (round >= TRAVERSE_MAX_ROUNDS) {
      traversal.discardPending();
      throw new Error(`catalog_traverse was still asking new questions after ${TRAVERSE_MAX_ROUNDS} renders`);
    }
    await traversal.load();
  }
}

function dollarOf(mode: RenderMode): DollarActions {
  return mode === 'shell' ? 'fields' : 'all';
}

async function renderScoped(text: string, scope: Scope, field: string, mode: RenderMode = 'value', traversal: CatalogTraversal | null = null): Promise<string> {
  if (!text.includes('{') && !text.includes('$(') && !text.includes(GO_TEMPLATE_HEADER)) return text;
  let rendered: string;
  try {
    if (templateDialect(text) === 'go') rendered = holdsGoActions(text, dollarOf(mode)) ? await renderGoLoaded(text, scope, mode, traversal) : text;
    else rendered = printTemplateValue(await (mode === 'value' ? liquid : markingLiquid).parseAndRender(withoutGoDots(text), scope));
  } catch (error) {
    throw templateError(field, firstLine(error));
  }
  if (rendered.length > TEMPLATE_OUTPUT_LIMIT) throw templateError(field, `it renders more than ${TEMPLATE_OUTPUT_LIMIT} characters`);
  return rendered;
}

/** Runs a placement (value-placement.ts), turning its refusal into the field's template error. */
function placed<T>(field: string, place: () => T): T {
  try {
    return place();
  } catch (error) {
    if (error instanceof PlacementError) throw templateError(field, error.message);
    throw error;
  }
}

/** Renders one templated value; throws AppError OD_PLAYBOOK_TEMPLATE (details: `field`) when it cannot. */
export async function renderTemplate(text: string, ctx: TemplateContext, field = 'template'): Promise<string> {
  return renderScoped(text, scopeOf(ctx), field);
}

type Render = (text: string, field: string, mode?: RenderMode) => Promise<string>;

/**
 * The exec block rendered: env values first (the script reads them as `.env`), then the script, whose values become
 * OPSDECK_TEMPLATE_<n> variables it references, quoted for where each stands.
 */
async function renderExec(exec: ExecAction, scope: Scope, render: Render, prefix: string): Promise<ExecAction> {
  const env = exec.env === undefined ? undefined : await Promise.all(exec.env.map(async (entry, i) => ({ ...entry, value: typeof entry.value === 'string' ? await render(entry.value, `exec.env[${i}].value`) : entry.value })));
  for (const entry of env ?? []) if (typeof entry.value === 'string') scope.env[entry.name] = entry.value;
  const script = await render(exec.script, 'exec.script', 'shell');
  if (exec.artifacts !== undefined) exec = { ...exec, artifacts: await Promise.all(exec.artifacts.map(async (artifact, i) => ({ path: (await render(artifact.path, `exec.artifacts[${i}].path`)).trim() }))) };
  const fromConfigItem = exec.connections?.fromConfigItem;
  if (fromConfigItem !== undefined) exec = { ...exec, connections: { ...exec.connections, fromConfigItem: (await render(fromConfigItem, 'exec.connections.fromConfigItem')).trim() } };
  if (!holdsMarkers(script)) return { ...exec, script, ...(env === undefined ? {} : { env }) };
  const interpreter = scriptInterpreter(script);
  const powerShell = interpreter !== null && POWERSHELL_INTERPRETERS.has(interpreter);
  if (interpreter !== null && !powerShell) throw templateError(`${prefix}.exec.script`, `the script runs with ${interpreter}, which this server does not quote values for`);
  const shell = placed(`${prefix}.exec.script`, () => (powerShell ? placeInPowerShell(script) : placeInShell(script)));
  const values = Object.entries(shell.env).map(([name, value]) => ({ name, value }));
  return { ...exec, script: shell.script, env: [...(env ?? []), ...values] };
}

function headerValue(headers: HttpAction['headers'], name: string): string | undefined {
  const found = headers?.find((header) => header.name.toLowerCase() === name);
  return typeof found?.value === 'string' ? found.value : undefined;
}

/** The http block rendered: URL values percent-encoded for their part, header values one line, body values escaped for its type. */
async function renderHttp(http: HttpAction, render: Render, prefix: string): Promise<HttpAction> {
  const rendered: HttpAction = { ...http };
  if (http.method !== undefined && holdsGoActions(http.method, 'all')) rendered.method = (await render(http.method, 'http.method')).trim().toUpperCase();
  if (http.url !== undefined) {
    const url = await render(http.url, 'http.url', 'code');
    rendered.url = placed(`${prefix}.http.url`, () => placeInUrl(url));
  }
  if (http.headers !== undefined) {
    rendered.headers = await Promise.all(
      http.headers.map(async (header, i) => {
        if (typeof header.value !== 'string') return header;
        const value = await render(header.value, `http.headers[${i}].value`);
        return { ...header, value: placed(`${prefix}.http.headers[${i}].value`, () => checkedHeaderValue(header.name, value)) };
      }),
    );
  }
  if (typeof http.body === 'string') {
    const body = await render(http.body, 'http.body', 'code');
    const contentType = headerValue(rendered.headers, 'content-type');
    rendered.body = placed(`${prefix}.http.body`, () => placeInBody(body, contentType));
  }
  return rendered;
}

/**
 * A copy of the action with its templated fields rendered. Values (exec env, sql args, header values, notification
 * fields) are rendered as text; code (the exec script, the sql query, the http URL and body) is rendered with each
 * value placed where it can only be a value (value-placement.ts): the script's become environment variables here, the
 * query's stay markers the sql runner binds once it knows the database's parameter style. A sealed value is never
 * rendered: it stays an envelope here and is opened after, for where the rendered action points.
 */
export async function renderAction(action: PlaybookAction, ctx: TemplateContext): Promise<PlaybookAction> {
  const scope = scopeOf(ctx);
  const render: Render = (text, field, mode = 'value') => renderScoped(text, scope, `${action.name}.${field}`, mode, ctx.traversal ?? null);
  const renderText = async (value: PlaybookSecretText, field: string): Promise<PlaybookSecretText> => (typeof value === 'string' ? render(value, field) : value);
  const rendered: PlaybookAction = { ...action };
  if (action.exec !== undefined) rendered.exec = await renderExec(action.exec, scope, render, action.name);
  if (action.http !== undefined) rendered.http = await renderHttp(action.http, render, action.name);
  if (action.sql !== undefined) {
    const args = action.sql.args;
    rendered.sql = {
      ...action.sql,
      query: await render(action.sql.query, 'sql.query', 'code'),
      ...(args === undefined ? {} : { args: await Promise.all(args.map((arg, i) => render(arg, `sql.args[${i}]`))) }),
    };
  }
  if (action.notification !== undefined) {
    const { title, message, properties } = action.notification;
    rendered.notification = {
      ...action.notification,
      title: await render(title, 'notification.title'),
      message: await render(message, 'notification.message'),
      ...(properties === undefined
        ? {}
        : {
            properties: Object.fromEntries(
              await Promise.all(
                Object.entries(properties).map(async ([key, value]) => [key, await renderText(value, `notification.properties.${key}`)] as const),
              ),
            ),
          }),
    };
  }
  return rendered;
}

/**
 * `spec.env` rendered once for a run, in order, over the run's parameters, target, user, request and playbook (not over
 * actions, nor over each other, as in Mission Control, so the values are the same whenever the run is picked up).
 * Each value is rendered as a value: its text is never read as a template again, and code that reads `.env.<name>`
 * places it like any other value. Throws OD_PLAYBOOK_TEMPLATE naming the entry (`spec.env.<name>`) when one fails.
 */
export async function renderSpecEnv(env: readonly PlaybookSpecEnvVar[], ctx: TemplateContext): Promise<Record<string, string>> {
  const scope = scopeOf({ ...ctx, actions: {}, env: {} });
  const values: Record<string, string> = {};
  for (const entry of env) values[entry.name] = await renderScoped(entry.value, scope, `spec.env.${entry.name}`, 'value', ctx.traversal ?? null);
  return values;
}

/**
 * The parameters with each `default` rendered for the chosen target. A default that cannot be rendered becomes empty,
 * so the form still opens and the person fills the value in.
 */
export async function resolveParameterDefaults(parameters: PlaybookParameter[], ctx: TemplateContext): Promise<PlaybookParameter[]> {
  const scope = scopeOf(ctx);
  return Promise.all(
    parameters.map(async (parameter) => {
      if (parameter.default === undefined) return parameter;
      try {
        return { ...parameter, default: await renderScoped(parameter.default, scope, `parameters.${parameter.name}.default`) };
      } catch {
        return { ...parameter, default: '' };
      }
    }),
  );
}

/**
 * Why the text is not a template this server can render, or null; parse only, nothing is evaluated. `code` is for a
 * script, query, URL or body, whose Liquid may not use `| raw`.
 */
export function checkTemplateSyntax(text: string, code = false, shell = false): string | null {
  if (holdsMarkerCharacters(text)) return 'it holds the control characters U+0002 or U+0003';
  const dollar: DollarActions = shell ? 'fields' : 'all';
  try {
    if (templateDialect(text) === 'go') parseGoTemplate(text, TEMPLATE_FUNCTION_NAMES, goOptions(dollar));
    else if (holdsDollarActions(text, dollar)) return 'it mixes Liquid ({{ params.x }}, {% %}) with Mission Control\'s $( ) actions: write it in one of them';
    else (code ? markingLiquid : liquid).parse(withoutGoDots(text));
    return null;
  } catch (error) {
    return firstLine(error);
  }
}

const CONTEXT_MAP = 'map<string, dyn>';

function conditionEnvironment(): Environment {
  return new Environment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } })
    .registerVariable('params', CONTEXT_MAP)
    .registerVariable('config', CONTEXT_MAP)
    .registerVariable('component', CONTEXT_MAP)
    .registerVariable('check', CONTEXT_MAP)
    .registerVariable('playbook', CONTEXT_MAP)
    .registerVariable('run', CONTEXT_MAP)
    .registerVariable('user', CONTEXT_MAP)
    .registerVariable('actions', CONTEXT_MAP);
}

/** The variables only; each evaluation adds success(), failure() and always() for its own run's actions. */
const CONDITION_BASE = conditionEnvironment();

function withOutcomeFunctions(base: Environment, anyFailed: boolean, actions: Readonly<Record<string, unknown>> = {}): Environment {
  return base
    .clone()
    .registerFunction('success(): bool', () => !anyFailed)
    .registerFunction('failure(): bool', () => anyFailed)
    .registerFunction('always(): bool', () => true)
    .registerFunction('last_result(): dyn', () => toCel(lastResult(actions)));
}

/** For checking the syntax only: the functions exist, their answers do not matter. */
const CONDITION_CHECKER = withOutcomeFunctions(CONDITION_BASE, false);

const DEFAULT_CONDITION = 'success()';

function conditionError(expression: string, problem: string): AppError {
  return new AppError(
    400,
    'OD_PLAYBOOK_CONDITION',
    `The condition '${expression}' could not be evaluated: ${problem}`,
    expression,
    'Conditions are CEL returning a bool, e.g. success(), failure(), always() or params.env == "prod"',
  );
}

/** Why the expression is not a condition (CEL returning a bool over the run's variables), or null. */
export function checkConditionSyntax(expression: string): string | null {
  const result = CONDITION_CHECKER.check(expression);
  if (!result.valid) return firstLine(result.error);
  if (result.type !== 'bool' && result.type !== 'dyn') return `it must return a bool, not ${result.type ?? 'nothing'}`;
  return null;
}

/**
 * An action's `if`: absent or blank means success() (no earlier action failed). Throws AppError
 * OD_PLAYBOOK_CONDITION when the expression does not parse, fails, or answers something other than a bool.
 */
export function evaluateCondition(expression: string | undefined, ctx: TemplateContext): boolean {
  const text = expression === undefined || expression.trim() === '' ? DEFAULT_CONDITION : expression;
  const anyFailed = Object.values(ctx.actions).some((action) => action.status === 'failed');
  let result: unknown;
  try {
    const scope = scopeOf(ctx);
    result = withOutcomeFunctions(CONDITION_BASE, anyFailed, scope.actions).evaluate(text, scope);
  } catch (error) {
    throw conditionError(text, firstLine(error));
  }
  if (typeof result !== 'boolean') throw conditionError(text, `it returned ${typeof result}, not a bool`);
  return result;
}

const DURATION_TEXT = new RegExp(PLAYBOOK_DURATION_PATTERN);

function delayError(expression: string, problem: string): AppError {
  return new AppError(400, 'OD_PLAYBOOK_DELAY', `The delay '${expression}' could not be evaluated: ${problem}`, expression, 'A delay is a duration (30s, 5m) or CEL returning one, such as params.delay');
}

/** Why the expression is not a delay (CEL over the run's variables returning a duration or its text), or null. */
export function checkDelaySyntax(expression: string): string | null {
  const result = CONDITION_CHECKER.check(expression);
  if (!result.valid) return firstLine(result.error);
  if (result.type !== 'string' && result.type !== 'dyn' && result.type !== 'google.protobuf.Duration') return `it must return a duration or text, not ${result.type ?? 'nothing'}`;
  return null;
}

/**
 * The milliseconds of an action's `delay`: a duration as written, or Mission Control's CEL (`params.delay`) whose
 * answer is a duration, or text that is one (`5m`, and `0` for none). Throws AppError OD_PLAYBOOK_DELAY otherwise.
 */
export function evaluateDelay(expression: string, ctx: TemplateContext): number {
  const literal = expression.trim();
  if (literal === '0') return 0;
  const written = DURATION_TEXT.test(literal) ? parseDurationMs(literal) : null;
  if (written !== null) return written;
  let result: unknown;
  try {
    result = withOutcomeFunctions(CONDITION_BASE, false).evaluate(literal, scopeOf(ctx));
  } catch (error) {
    throw delayError(literal, firstLine(error));
  }
  if (result instanceof Duration) return Number(result.getMilliseconds());
  if (typeof result === 'string') {
    const text = result.trim();
    if (text === '0' || text === '') return 0;
    const ms = DURATION_TEXT.test(text) ? parseDurationMs(text) : null;
    if (ms !== null) return ms;
    throw delayError(literal, `it returned '${result}', which is not a duration`);
  }
  throw delayError(literal, `it returned ${typeof result}, not a duration`);
}
