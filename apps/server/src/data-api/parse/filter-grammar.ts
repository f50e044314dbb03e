import { apiErrors } from '../api-errors';
import { LIMITS } from '../limits';

export const OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch',
  'in', 'is', 'isdistinct', 'cs', 'cd', 'ov', 'fts', 'plfts', 'phfts', 'wfts',
] as const;
export type Operator = (typeof OPERATORS)[number];

const QUANTIFIABLE: ReadonlySet<Operator> = new Set<Operator>(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const TEXT_SEARCH: ReadonlySet<Operator> = new Set<Operator>(['fts', 'plfts', 'phfts', 'wfts']);
export const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;
export type IsValue = (typeof IS_VALUES)[number];

export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface Field {
  column: string;
  path: JsonStep[];
}

export interface Condition {
  kind: 'condition';
  field: Field;
  negated: boolean;
  operator: Operator;
  quantifier: 'any' | 'all' | null;
  language: string | null;
  /** The raw value; for `in` and quantified operators the parsed items are in `list`. */
  value: string;
  list: string[] | null;
}

export interface Logic {
  kind: 'logic';
  operator: 'and' | 'or';
  negated: boolean;
  children: FilterNode[];
}

export type FilterNode = Condition | Logic;

const IDENT = /^[\p{L}\p{N}_$][\p{L}\p{N}_$ -]*$/u;

export function checkIdentifier(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || !IDENT.test(trimmed) || trimmed.includes('->')) throw apiErrors.parse(`Invalid ${what}: '${name}'`);
  return trimmed;
}

export function unquoteIdentifier(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    const inner = trimmed.slice(1, -1).replace(/""/g, '"');
    if (inner === '' || inner.includes('"')) throw apiErrors.parse(`Invalid identifier: ${text}`);
    return inner;
  }
  return trimmed;
}

/** `col`, `"my col"`, `data->a->>b`, `data->0`: a column and an optional JSON path. */
export function parseField(text: string): Field {
  const parts = text.split(/(->>|->)/);
  const head = parts[0] ?? '';
  const column = head.trim().startsWith('"') ? unquoteIdentifier(head) : checkIdentifier(head, 'column name');
  const path: JsonStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const arrow = parts[i] as '->' | '->>';
    const key = unquoteIdentifier(parts[i + 1] ?? '');
    if (key === '' || /[(),:!."]/.test(key)) throw apiErrors.parse(`Invalid JSON path in '${text}'`);
    path.push({ arrow, key });
  }
  return { column, path };
}

/** Splits on commas that are outside parentheses, braces and double quotes. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i += 1;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(' || ch === '{' || ch === '[') depth += 1;
    else if (ch === ')' || ch === '}' || ch === ']') {
      depth -= 1;
      if (depth < 0) throw apiErrors.parse(`Unbalanced parentheses in '${text}'`);
    } else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || quoted) throw apiErrors.parse(`Unbalanced parentheses or quotes in '${text}'`);
  parts.push(text.slice(start));
  return parts;
}

function unquoteValue(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  return text;
}

/** `(a,b,"c,d")` or `{a,b}`: the items of a list value. */
export function parseList(text: string): string[] {
  const open = text[0];
  const close = open === '(' ? ')' : open === '{' ? '}' : null;
  if (close === null || !text.endsWith(close)) throw apiErrors.parse(`Expected a list such as (a,b) but got '${text}'`);
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return [];
  const items = splitTopLevel(inner).map((item) => unquoteValue(item.trim()));
  if (items.length > LIMITS.maxListItems) throw apiErrors.listTooLong(LIMITS.maxListItems);
  return items;
}

const OPERATOR_TOKEN = /^([a-z]+)(?:\(([^()]*)\))?$/;

/** `[not.]op[(any|all|language)].value` */
export function parseCondition(field: Field, text: string): Condition {
  let rest = text;
  let negated = false;
  if (rest.startsWith('not.')) {
    negated = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  if (dot < 0) throw apiErrors.parse(`'${text}' is not a filter: expected operator.value, such as eq.5`);
  const token = OPERATOR_TOKEN.exec(rest.slice(0, dot));
  const value = rest.slice(dot + 1);
  const name = token?.[1];
  if (token === null || name === undefined || !(OPERATORS as readonly string[]).includes(name)) {
    throw apiErrors.parse(`Unknown operator in '${text}'`, `Supported operators: ${OPERATORS.join(', ')}`);
  }
  const operator = name as Operator;
  const modifier = token[2];
  let quantifier: 'any' | 'all' | null = null;
  let language: string | null = null;
  if (modifier !== undefined) {
    if (QUANTIFIABLE.has(operator) && (modifier === 'any' || modifier === 'all')) quantifier = modifier;
    else if (TEXT_SEARCH.has(operator) && /^[a-z_]+$/.test(modifier)) language = modifier;
    else throw apiErrors.parse(`Unsupported modifier '${modifier}' for operator ${operator}`);
  }
  let list: string[] | null = null;
  if (operator === 'in' || quantifier !== null) list = parseList(value);
  if (operator === 'is' && !(IS_VALUES as readonly string[]).includes(value.toLowerCase())) {
    throw apiErrors.parse(`'is' accepts only ${IS_VALUES.join(', ')}`, `Got '${value}'`);
  }
  return { kind: 'condition', field, negated, operator, quantifier, language, value: operator === 'is' ? value.toLowerCase() : value, list };
}

/** The inside of `or=(…)`/`and=(…)`: conditions written `field.op.value` and nested groups. */
export function parseLogic(operator: 'and' | 'or', negated: boolean, text: string, depth = 0): Logic {
  if (depth > LIMITS.maxLogicDepth) throw apiErrors.parse('Logic groups are nested too deeply');
  if (!text.startsWith('(') || !text.endsWith(')')) throw apiErrors.parse(`Expected a parenthesised group after ${operator}= but got '${text}'`);
  const inner = text.slice(1, -1);
  if (inner.trim() === '') throw apiErrors.parse(`Empty ${operator} group`);
  const children = splitTopLevel(inner).map((raw): FilterNode => {
    const item = raw.trim();
    const group = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
    if (group !== null) return parseLogic(group[2] as 'and' | 'or', group[1] !== undefined, group[3] ?? '', depth + 1);
    const dot = item.indexOf('.');
    if (dot <= 0) throw apiErrors.parse(`'${item}' is not a condition: expected field.operator.value`);
    return parseCondition(parseField(item.slice(0, dot)), item.slice(dot + 1));
  });
  return { kind: 'logic', operator, negated, children };
}

