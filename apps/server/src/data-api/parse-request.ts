import { apiErrors } from './api-errors';
import { LIMITS } from './limits';

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

export interface ColumnItem {
  kind: 'column';
  field: Field;
  alias: string | null;
  cast: string | null;
}

export interface EmbedItem {
  kind: 'embed';
  relation: string;
  alias: string | null;
  hint: string | null;
  inner: boolean;
  items: SelectItem[];
}

export type SelectItem = { kind: 'star' } | ColumnItem | EmbedItem;

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

export interface OrderTerm {
  field: Field;
  /** Set for a related order, `order=team(name).asc`: the embedded resource whose column orders the rows. */
  relation: string | null;
  descending: boolean;
  nulls: 'first' | 'last' | null;
}

export interface Modifiers {
  filters: FilterNode[];
  order: OrderTerm[] | null;
  limit: number | null;
  offset: number | null;
}

export interface ParsedQuery {
  select: SelectItem[];
  /** Filters, order and paging per embedding path: '' is the target, 'team' or 'team.members' an embedded resource. */
  modifiers: Map<string, Modifiers>;
  columns: string[] | null;
  onConflict: string[] | null;
  /** Query parameters that named an argument of the called function (GET /rpc/…). */
  args: Map<string, string>;
}

const IDENT = /^[\p{L}\p{N}_$][\p{L}\p{N}_$ -]*$/u;

function checkIdentifier(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || !IDENT.test(trimmed) || trimmed.includes('->')) throw apiErrors.parse(`Invalid ${what}: '${name}'`);
  return trimmed;
}

function unquoteIdentifier(text: string): string {
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

export function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((raw) => {
    const term = raw.trim();
    const related = /^([^().]+)\(([^()]+)\)(.*)$/s.exec(term);
    let fieldText: string;
    let relation: string | null = null;
    let modifiers: string[];
    if (related !== null) {
      relation = checkIdentifier(related[1] ?? '', 'relation name');
      fieldText = related[2] ?? '';
      modifiers = (related[3] ?? '').split('.').filter((part, index) => index > 0 || part !== '');
    } else {
      const parts = term.split('.');
      fieldText = parts[0] ?? '';
      modifiers = parts.slice(1);
    }
    let descending = false;
    let nulls: 'first' | 'last' | null = null;
    for (const modifier of modifiers) {
      if (modifier === 'asc') descending = false;
      else if (modifier === 'desc') descending = true;
      else if (modifier === 'nullsfirst') nulls = 'first';
      else if (modifier === 'nullslast') nulls = 'last';
      else throw apiErrors.parse(`Invalid order modifier '${modifier}' in '${term}'`, 'Use asc, desc, nullsfirst or nullslast');
    }
    return { field: parseField(fieldText), relation, descending, nulls };
  });
}

class SelectParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parse(): SelectItem[] {
    const items = this.list(0);
    if (this.pos !== this.text.length) this.fail();
    return items;
  }

  private fail(): never {
    throw apiErrors.parse(`Failed to parse select parameter (${this.text})`, `Unexpected input at position ${this.pos + 1}`);
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  private list(depth: number): SelectItem[] {
    if (depth > LIMITS.maxEmbedDepth) throw apiErrors.tooDeep(LIMITS.maxEmbedDepth);
    const items: SelectItem[] = [];
    if (this.peek() === ')') return items;
    for (;;) {
      items.push(this.item(depth));
      if (this.peek() !== ',') return items;
      this.pos += 1;
    }
  }

  /** A name, a quoted name, or a field with its JSON path: everything up to the next delimiter. */
  private word(): string {
    const start = this.pos;
    if (this.peek() === '"') {
      this.pos += 1;
      while (this.pos < this.text.length && this.peek() !== '"') this.pos += 1;
      if (this.peek() !== '"') this.fail();
      this.pos += 1;
    }
    while (this.pos < this.text.length) {
      const ch = this.peek();
      if (ch === '-' && this.text[this.pos + 1] === '>') {
        this.pos += this.text[this.pos + 2] === '>' ? 3 : 2;
        if (this.peek() === '"') {
          this.pos += 1;
          while (this.pos < this.text.length && this.peek() !== '"') this.pos += 1;
          if (this.peek() !== '"') this.fail();
          this.pos += 1;
        }
        continue;
      }
      if (ch === undefined || ',():!"'.includes(ch)) break;
      this.pos += 1;
    }
    const word = this.text.slice(start, this.pos);
    if (word.trim() === '') this.fail();
    return word;
  }

  private item(depth: number): SelectItem {
    if (this.peek() === '*') {
      this.pos += 1;
      return { kind: 'star' };
    }
    if (this.text.startsWith('...', this.pos)) throw apiErrors.parse('Spread embedding (...) is not supported');
    let alias: string | null = null;
    let name = this.word();
    if (this.peek() === ':' && this.text[this.pos + 1] !== ':') {
      this.pos += 1;
      alias = checkIdentifier(unquoteIdentifier(name), 'alias');
      name = this.word();
    }
    let hint: string | null = null;
    let inner = false;
    while (this.peek() === '!') {
      this.pos += 1;
      const tag = this.word().trim();
      if (tag === 'inner') inner = true;
      else if (tag === 'left') inner = false;
      else if (hint === null) hint = checkIdentifier(tag, 'embedding hint');
      else this.fail();
    }
    if (this.peek() === '(') {
      this.pos += 1;
      const items = this.list(depth + 1);
      if (this.peek() !== ')') this.fail();
      this.pos += 1;
      const relation = name.trim().startsWith('"') ? unquoteIdentifier(name) : checkIdentifier(name, 'relation name');
      return { kind: 'embed', relation, alias, hint, inner, items };
    }
    if (hint !== null || inner) this.fail();
    let cast: string | null = null;
    if (this.text.startsWith('::', this.pos)) {
      this.pos += 2;
      const match = /^[a-z_][a-z0-9_ ]*(\[\])?/i.exec(this.text.slice(this.pos));
      if (match === null) this.fail();
      cast = match[0].trim().toLowerCase().replace(/\s+/g, ' ');
      this.pos += match[0].length;
    }
    return { kind: 'column', field: parseField(name), alias, cast };
  }
}

export function parseSelect(text: string): SelectItem[] {
  if (text.trim() === '') return [{ kind: 'star' }];
  return new SelectParser(text.replace(/\s+(?=[,()])|(?<=[,(])\s+/g, '')).parse();
}

function parseNonNegative(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text)) throw apiErrors.parse(`'${what}' must be a non-negative integer, got '${text}'`);
  return Number(text);
}

function parseColumnList(text: string, what: string): string[] {
  const names = splitTopLevel(text).map((part) => unquoteIdentifier(part));
  for (const name of names) checkIdentifier(name, what);
  return names;
}

function modifiersFor(map: Map<string, Modifiers>, path: string): Modifiers {
  let found = map.get(path);
  if (found === undefined) {
    found = { filters: [], order: null, limit: null, offset: null };
    map.set(path, found);
  }
  return found;
}

/** Splits a parameter key into its embedding path and its last part, leaving JSON paths whole. */
function splitKey(key: string): { path: string[]; last: string } {
  const arrow = key.indexOf('->');
  const head = arrow < 0 ? key : key.slice(0, arrow);
  const tail = arrow < 0 ? '' : key.slice(arrow);
  const segments = head.split('.');
  const last = (segments.pop() ?? '') + tail;
  return { path: segments, last };
}

/**
 * Reads the query string into the request's select tree and per-resource modifiers. Keys in `argNames` are function
 * arguments (GET /rpc/…); every other key is either reserved (select, columns, on_conflict, order, limit, offset,
 * and, or) or a filter.
 */
export function parseQuery(params: URLSearchParams, argNames: ReadonlySet<string> = new Set()): ParsedQuery {
  const modifiers = new Map<string, Modifiers>();
  modifiersFor(modifiers, '');
  const result: ParsedQuery = { select: [{ kind: 'star' }], modifiers, columns: null, onConflict: null, args: new Map() };
  for (const [key, value] of params) {
    if (argNames.has(key)) {
      result.args.set(key, value);
      continue;
    }
    if (key === 'select') {
      result.select = parseSelect(value);
      continue;
    }
    if (key === 'columns') {
      result.columns = parseColumnList(value, 'column name in columns');
      continue;
    }
    if (key === 'on_conflict') {
      result.onConflict = parseColumnList(value, 'column name in on_conflict');
      continue;
    }
    const { path, last } = splitKey(key);
    let negated = false;
    if ((last === 'or' || last === 'and') && path[path.length - 1] === 'not') {
      negated = true;
      path.pop();
    }
    if (path.length > LIMITS.maxEmbedDepth) throw apiErrors.tooDeep(LIMITS.maxEmbedDepth);
    for (const segment of path) checkIdentifier(segment, 'embedded resource name');
    const target = modifiersFor(modifiers, path.join('.'));
    if (last === 'or' || last === 'and') {
      target.filters.push(parseLogic(last, negated, value));
    } else if (last === 'order') {
      target.order = parseOrder(value);
    } else if (last === 'limit') {
      target.limit = parseNonNegative(value, 'limit');
    } else if (last === 'offset') {
      target.offset = parseNonNegative(value, 'offset');
    } else {
      target.filters.push(parseCondition(parseField(last), value));
    }
  }
  return result;
}
