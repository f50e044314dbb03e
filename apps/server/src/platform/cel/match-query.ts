/**
 * Mission Control's `matchQuery(resource, query)` (duty's resource-selector search, as notification filters use it):
 * `type!=http labels.Expected-Fail!=true`, `type=Kubernetes::Pod,Kubernetes::Deployment name!=postgres`. This server
 * runs the common part of that grammar: terms separated by spaces, all of which must hold, each a field, an operator
 * (`=`, `!=`, `>`, `<`) and a value; a value is a comma-separated list of patterns (`prefix*`, `*suffix`, `*`, `!not`).
 * Anything else (parentheses, `or`, `|`, date math) is refused when the query is read, never matched loosely.
 */

export type MatchOperator = '=' | '!=' | '>' | '<';

export interface MatchTerm {
  field: string;
  operator: MatchOperator;
  value: string;
}

export class MatchQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MatchQueryError';
  }
}

const MAX_QUERY_LENGTH = 2000;
const TERM = /^([A-Za-z_][\w.:-]*?)(!=|=|>|<)(.*)$/;

function unquote(value: string): string {
  return value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) ? value.slice(1, -1) : value;
}

/** The query's terms; throws MatchQueryError naming what this server does not run. */
export function parseMatchQuery(query: string): MatchTerm[] {
  if (query.length > MAX_QUERY_LENGTH) throw new MatchQueryError(`matchQuery: the query is longer than ${MAX_QUERY_LENGTH} characters`);
  const words = query.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
  if (words.length === 0) throw new MatchQueryError('matchQuery: the query is empty');
  return words.map((word) => {
    if (/^(or|and|not)$/i.test(word) || /[()|]/.test(word)) {
      throw new MatchQueryError(`matchQuery: '${word}' is not run by this server; write terms separated by spaces, all of which must hold`);
    }
    const match = TERM.exec(word);
    if (match === null) throw new MatchQueryError(`matchQuery: '${word}' is not a term (field=value, field!=value, field>n or field<n)`);
    const [, field = '', operator = '=', value = ''] = match;
    if (operator === '>' || operator === '<') {
      if (!Number.isFinite(Number(value)) || value.trim() === '') throw new MatchQueryError(`matchQuery: '${word}' compares with ${operator}, which takes a number`);
    }
    return { field, operator: operator as MatchOperator, value: unquote(value) };
  });
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return null;
}

/** A component's properties are a list of {name, text, value}; a map is read too. */
function propertyValue(properties: unknown, name: string): string | null {
  if (Array.isArray(properties)) {
    for (const property of properties) {
      if (typeof property === 'object' && property !== null && (property as Record<string, unknown>).name === name) {
        const { text: shown, value } = property as Record<string, unknown>;
        return text(shown) ?? text(value);
      }
    }
    return null;
  }
  return typeof properties === 'object' && properties !== null ? text((properties as Record<string, unknown>)[name]) : null;
}

/** The resource's value of a field: `labels.x`, `tags.x`, `properties.x` or a top-level field; '' when it has none. */
function fieldValue(resource: Readonly<Record<string, unknown>>, field: string): string {
  const dot = field.indexOf('.');
  if (dot > 0) {
    const section = field.slice(0, dot);
    const key = field.slice(dot + 1);
    if (section === 'properties') return propertyValue(resource.properties, key) ?? '';
    const map = resource[section];
    if (typeof map === 'object' && map !== null && !Array.isArray(map)) return text((map as Record<string, unknown>)[key]) ?? '';
    return '';
  }
  return text(resource[field]) ?? '';
}

function matchesPattern(value: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.length > 1 && pattern.startsWith('*') && pattern.endsWith('*')) return value.includes(pattern.slice(1, -1));
  if (pattern.endsWith('*')) return value.startsWith(pattern.slice(0, -1));
  if (pattern.startsWith('*')) return value.endsWith(pattern.slice(1));
  return value === pattern;
}

/** As duty matches a list of patterns: a `!pattern` that matches excludes; otherwise any other pattern that matches includes. */
function matchesAny(value: string, patterns: readonly string[]): boolean {
  const excluded = patterns.filter((p) => p.startsWith('!')).some((p) => matchesPattern(value, p.slice(1)));
  if (excluded) return false;
  const included = patterns.filter((p) => !p.startsWith('!'));
  return included.length === 0 || included.some((p) => matchesPattern(value, p));
}

function termHolds(resource: Readonly<Record<string, unknown>>, term: MatchTerm): boolean {
  const value = fieldValue(resource, term.field);
  if (term.operator === '>' || term.operator === '<') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) return false;
    return term.operator === '>' ? number > Number(term.value) : number < Number(term.value);
  }
  const matched = matchesAny(value, term.value.split(','));
  return term.operator === '=' ? matched : !matched;
}

/** Whether every term of the query holds for the resource (a map, as CEL filters see it). */
export function matchQuery(resource: Readonly<Record<string, unknown>>, query: string): boolean {
  return parseMatchQuery(query).every((term) => termHolds(resource, term));
}

/**
 * CEL's leading-dot identifiers (`.check`, a name looked up at the root scope, as Mission Control writes
 * `matchQuery(.check, "…")`), which the CEL parser here does not read: the dot is dropped where it starts an operand,
 * outside string literals. With no container namespace the two mean the same.
 */
export function withoutRootDots(expression: string): string {
  let out = '';
  let previous = '';
  for (let i = 0; i < expression.length; i += 1) {
    const char = expression[i] ?? '';
    if (char === '"' || char === "'") {
      const triple = expression.startsWith(char.repeat(3), i);
      const quote = triple ? char.repeat(3) : char;
      let end = i + quote.length;
      while (end < expression.length && !expression.startsWith(quote, end)) end += expression[end] === '\\' ? 2 : 1;
      end = Math.min(expression.length, end + quote.length);
      out += expression.slice(i, end);
      previous = char;
      i = end - 1;
      continue;
    }
    const startsOperand = previous === '' || /[([{,:?!&|=<>+\-*/%]/.test(previous);
    if (char === '.' && startsOperand && /[A-Za-z_]/.test(expression[i + 1] ?? '')) continue;
    out += char;
    if (!/\s/.test(char)) previous = char;
  }
  return out;
}

/** The literal queries of the `matchQuery(…, "…")` calls in an expression, to read when it is saved. */
export function literalMatchQueries(expression: string): string[] {
  const queries: string[] = [];
  const call = /matchQuery\s*\([^,()]*,\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\)/g;
  for (const found of expression.matchAll(call)) {
    const literal = found[1] ?? '';
    queries.push(literal.slice(1, -1).replace(/\\(.)/g, '$1'));
  }
  return queries;
}
