import { celToText } from './cel-values';

/** Thrown for template text this server does not run: the message names what and suggests CEL instead. */
export class GoTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoTemplateError';
  }
}

const FUNCTIONS: Readonly<Record<string, (value: unknown) => unknown>> = {
  upper: (value: unknown) => celToText(value).toUpperCase(),
  toUpper: (value: unknown) => celToText(value).toUpperCase(),
  lower: (value: unknown) => celToText(value).toLowerCase(),
  toLower: (value: unknown) => celToText(value).toLowerCase(),
  trimSpace: (value: unknown) => celToText(value).trim(),
  toString: (value: unknown) => celToText(value),
  toJSON: (value: unknown) => JSON.stringify(value ?? null),
  len: (value: unknown) => (Array.isArray(value) ? value.length : typeof value === 'string' ? [...value].length : value !== null && typeof value === 'object' ? Object.keys(value).length : 0),
};

const CONTROL = new Set(['range', 'if', 'else', 'end', 'with', 'define', 'template', 'block', 'break', 'continue']);
/** What Go's text/template prints for a missing map key. */
const NO_VALUE = '<no value>';

function lookup(root: unknown, path: string): unknown {
  let value = root;
  for (const key of path.split('.').filter((part) => part !== '')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function operand(token: string, data: unknown): unknown {
  if (token === '.' || token === '$') return data;
  if (token.startsWith('.')) return lookup(data, token.slice(1));
  if (token.startsWith('$.')) return lookup(data, token.slice(2));
  if (/^"(?:[^"\\]|\\.)*"$/.test(token)) return JSON.parse(token) as string;
  if (/^`[^`]*`$/.test(token)) return token.slice(1, -1);
  if (/^-?\d+(?:\.\d+)?$/.test(token)) return Number(token);
  if (token === 'true' || token === 'false') return token === 'true';
  if (token === 'nil') return null;
  if (token.startsWith('$')) throw new GoTemplateError(`template variables (${token}) are not supported by this server; use display.expr (CEL)`);
  throw new GoTemplateError(`'${token}' is not supported by this server in a template; use display.expr (CEL)`);
}

function callFunction(name: string, value: unknown): unknown {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (fn === undefined) {
    throw new GoTemplateError(`the template function '${name}' is not supported by this server (supported: ${Object.keys(FUNCTIONS).join(', ')}); use display.expr (CEL)`);
  }
  return fn(value);
}

function tokens(text: string): string[] {
  return [...text.matchAll(/"(?:[^"\\]|\\.)*"|`[^`]*`|\S+/g)].map((match) => match[0]);
}

/** One `{{ … }}` action: an operand, or a function applied to one, then `| function` stages. */
function evaluateAction(action: string, data: unknown): unknown {
  const stages = action.split('|').map((stage) => tokens(stage));
  const [first, ...rest] = stages;
  const head = first?.[0];
  if (head === undefined) throw new GoTemplateError('an empty {{ }} action');
  if (CONTROL.has(head)) throw new GoTemplateError(`'{{${head}}}' is not supported by this server in a template; use display.expr (CEL)`);
  if (first !== undefined && first.some((token) => token === ':=' || token === '=')) throw new GoTemplateError('template variables are not supported by this server; use display.expr (CEL)');
  let value: unknown;
  if (first !== undefined && first.length === 2 && !head.startsWith('.') && !head.startsWith('$')) value = callFunction(head, operand(first[1] ?? '', data));
  else if (first !== undefined && first.length === 1) value = operand(head, data);
  else throw new GoTemplateError(`'{{${action.trim()}}}' is not supported by this server in a template; use display.expr (CEL)`);
  for (const stage of rest) {
    if (stage.length !== 1 || stage[0] === undefined) throw new GoTemplateError(`'| ${stage.join(' ')}' is not supported by this server; a stage is one function name`);
    value = callFunction(stage[0], value);
  }
  return value;
}

function printed(value: unknown): string {
  if (value === undefined) return NO_VALUE;
  if (value === null) return NO_VALUE;
  return celToText(value);
}

/**
 * Renders the part of Go's text/template that display templates use: `{{.field.path}}`, `{{ . }}`, literals, `{{-`/`-}}`
 * trimming and pipelines through a few functions (upper, lower, trimSpace, toString, toJSON, len). Control structures
 * (range, if, with), variables and other functions are refused with an error that names them, never rendered as text.
 */
export function renderGoTemplate(template: string, data: unknown): string {
  let out = '';
  let rest = template;
  for (;;) {
    const open = rest.indexOf('{{');
    if (open === -1) return out + rest;
    let before = rest.slice(0, open);
    let inner = rest.slice(open + 2);
    if (inner.startsWith('-') && /^-\s/.test(inner)) {
      before = before.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    const close = inner.indexOf('}}');
    if (close === -1) throw new GoTemplateError('unclosed {{ action');
    let action = inner.slice(0, close);
    rest = inner.slice(close + 2);
    if (/\s-$/.test(action)) {
      action = action.slice(0, -1);
      rest = rest.replace(/^\s+/, '');
    }
    out += before;
    if (/^\s*\/\*[\s\S]*\*\/\s*$/.test(action)) continue;
    out += printed(evaluateAction(action, data));
  }
}
