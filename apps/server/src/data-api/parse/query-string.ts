import { apiErrors } from '../api-errors';
import { LIMITS } from '../limits';
import { checkIdentifier, parseCondition, parseField, parseLogic, splitTopLevel, unquoteIdentifier, type FilterNode } from './filter-grammar';
import { parseOrder, parseSelect, type OrderTerm, type SelectItem } from './select-grammar';

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

/** The query string of a raw request URL, decoded; a malformed percent-escape is the client's parse error. */
export function searchParamsOf(url: string): URLSearchParams {
  const index = url.indexOf('?');
  try {
    return new URLSearchParams(index < 0 ? '' : url.slice(index + 1));
  } catch {
    throw apiErrors.parse('The query string is not valid URL encoding');
  }
}
