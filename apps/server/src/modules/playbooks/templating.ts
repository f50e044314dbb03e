import { Environment } from '@marcbachmann/cel-js/evaluator';
import type { PlaybookAction, PlaybookParameter, PlaybookSecretText } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { printTemplateValue, sandboxedLiquid } from '../../platform/sandboxed-liquid';
import type { TemplateContext } from './types';

/**
 * Action values and parameter defaults are Liquid templates (`{{ params.x }}`, `{{ config.name }}`,
 * `{{ actions['first'].result.stdout }}`); `if` conditions are CEL. Both only read the context: no files, no
 * JavaScript, no prototype chain, and bounded in size and time so a spec cannot stall a worker.
 */

/** Longest rendered value, in characters. */
export const TEMPLATE_OUTPUT_LIMIT = 1_000_000;
/** Nesting of context data handed to templates and conditions; deeper values are cut. */
const CONTEXT_DEPTH_LIMIT = 32;

const liquid = sandboxedLiquid('Playbook templates');
/** Mission Control's Go templates write `{{.params.x}}`; the leading dot of such a reference is dropped. */
const GO_STYLE_REFERENCE = /\{\{(-?\s*)\.(?=[A-Za-z_])/g;

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
function scopeOf(ctx: TemplateContext): Record<string, Record<string, unknown>> {
  return {
    params: plainMap(ctx.params),
    config: plainMap(ctx.config),
    component: plainMap(ctx.component),
    check: plainMap(ctx.check),
    playbook: plainMap(ctx.playbook),
    run: plainMap(ctx.run),
    user: plainMap(ctx.user),
    actions: plainMap(ctx.actions),
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
    "Templates read params, config, component, check, playbook, run, user and actions, e.g. {{ params.name }}",
  );
}

async function renderScoped(text: string, scope: object, field: string): Promise<string> {
  if (!text.includes('{')) return text;
  let output: unknown;
  try {
    output = await liquid.parseAndRender(withoutGoDots(text), scope);
  } catch (error) {
    throw templateError(field, firstLine(error));
  }
  const rendered = printTemplateValue(output);
  if (rendered.length > TEMPLATE_OUTPUT_LIMIT) throw templateError(field, `it renders more than ${TEMPLATE_OUTPUT_LIMIT} characters`);
  return rendered;
}

/** Renders one templated value; throws AppError OD_PLAYBOOK_TEMPLATE (details: `field`) when it cannot. */
export async function renderTemplate(text: string, ctx: TemplateContext, field = 'template'): Promise<string> {
  return renderScoped(text, scopeOf(ctx), field);
}

/**
 * A copy of the action with its templated fields rendered: exec env values, http url, header values and body, sql
 * args, notification title, message and property values. Scripts and queries are code and are never templated, and
 * neither is a sealed value: it stays an envelope here and is opened after, for where the rendered action points.
 */
export async function renderAction(action: PlaybookAction, ctx: TemplateContext): Promise<PlaybookAction> {
  const scope = scopeOf(ctx);
  const render = (text: string, field: string) => renderScoped(text, scope, `${action.name}.${field}`);
  const renderText = async (value: PlaybookSecretText, field: string): Promise<PlaybookSecretText> => (typeof value === 'string' ? render(value, field) : value);
  const rendered: PlaybookAction = { ...action };
  if (action.exec !== undefined) {
    const env = action.exec.env;
    rendered.exec = {
      ...action.exec,
      ...(env === undefined
        ? {}
        : { env: await Promise.all(env.map(async (entry, i) => ({ ...entry, value: await renderText(entry.value, `exec.env[${i}].value`) }))) }),
    };
  }
  if (action.http !== undefined) {
    const { url, headers, body } = action.http;
    rendered.http = {
      ...action.http,
      ...(url === undefined ? {} : { url: await render(url, 'http.url') }),
      ...(headers === undefined
        ? {}
        : { headers: await Promise.all(headers.map(async (header, i) => ({ ...header, value: await renderText(header.value, `http.headers[${i}].value`) }))) }),
      ...(body === undefined ? {} : { body: await renderText(body, 'http.body') }),
    };
  }
  if (action.sql !== undefined) {
    const args = action.sql.args;
    rendered.sql = {
      ...action.sql,
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

/** Why the text is not a template this server can render, or null; parse only, nothing is evaluated. */
export function checkTemplateSyntax(text: string): string | null {
  try {
    liquid.parse(withoutGoDots(text));
    return null;
  } catch (error) {
    return firstLine(error);
  }
}

const CONTEXT_MAP = 'map<string, dyn>';

function conditionEnvironment(): Environment {
  return new Environment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } })
    .registerVariable('params', 'map<string, string>')
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

function withOutcomeFunctions(base: Environment, anyFailed: boolean): Environment {
  return base
    .clone()
    .registerFunction('success(): bool', () => !anyFailed)
    .registerFunction('failure(): bool', () => anyFailed)
    .registerFunction('always(): bool', () => true);
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
    result = withOutcomeFunctions(CONDITION_BASE, anyFailed).evaluate(text, scopeOf(ctx));
  } catch (error) {
    throw conditionError(text, firstLine(error));
  }
  if (typeof result !== 'boolean') throw conditionError(text, `it returned ${typeof result}, not a bool`);
  return result;
}
