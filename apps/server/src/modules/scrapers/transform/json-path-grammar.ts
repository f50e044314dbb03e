import { JSONPath } from 'jsonpath-plus';
import { filterEvaluator, filterProblem } from './json-path-filter';

/** Where a bracket's contents end, skipping quoted names; -1 when it never closes. */
function closingBracket(text: string, open: number): number {
  let quote: string | null = null;
  for (let i = open + 1; i < text.length; i += 1) {
    const c = text[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ']') return i;
  }
  return -1;
}

/**
 * Where `[?( … )]` ends: the `]` after the `)` that closes its opening parenthesis, since a filter holds brackets and
 * parentheses of its own (`@['a']`, `!( )`); -1 when it never closes.
 */
function closingFilter(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = text.indexOf('(', open); i < text.length; i += 1) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) {
        const after = /^\s*\]/.exec(text.slice(i + 1));
        return after === null ? -1 : i + after[0].length;
      }
    }
  }
  return -1;
}

const BRACKET_PART = /^\s*(\*|-?\d+|-?\d*:-?\d*(:-?\d+)?|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*$/;
const NAME = /^[^.[\]\s()?,'"]+/;

/** Splits a bracket's contents at commas outside quotes. */
function bracketParts(inner: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const c = inner[i];
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ',') {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

/**
 * The grammar check of jsonPathProblem and scraperJsonPathProblem. jsonpath-plus parses leniently (`$[` reads as
 * `$`), so the grammar is checked here first: dotted names, `..`, `*`, and brackets of indexes, slices, quoted names
 * and unions; filters only when `filters` is set, and only the ones json-path-filter.ts evaluates.
 */
function problemOf(text: string, filters: boolean): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('$')) return 'must start with $';
  let i = 1;
  while (i < trimmed.length) {
    const c = trimmed[i];
    if (c === '.') {
      const deep = trimmed[i + 1] === '.';
      i += deep ? 2 : 1;
      if (deep && trimmed[i] === '[') continue;
      if (trimmed[i] === '*') {
        i += 1;
        continue;
      }
      const name = NAME.exec(trimmed.slice(i));
      if (name === null) return `expects a name after '.' at position ${i}`;
      i += name[0].length;
    } else if (c === '[') {
      const opening = trimmed.slice(i + 1).trimStart();
      if (filters && opening.startsWith('?(')) {
        const close = closingFilter(trimmed, i);
        if (close === -1) return `has a filter at position ${i} that is not closed by ')]'`;
        const inner = trimmed.slice(i + 1, close).trim();
        const problem = filterProblem(inner.slice(2, inner.lastIndexOf(')')));
        if (problem !== null) return `has a filter '[${inner}]' this server does not evaluate: it ${problem}`;
        i = close + 1;
        continue;
      }
      const close = closingBracket(trimmed, i);
      if (close === -1) return `has a '[' at position ${i} that is never closed`;
      const inner = trimmed.slice(i + 1, close).trim();
      if (inner.startsWith('?') || inner.startsWith('(')) return 'uses a filter or script expression, which is not evaluated here';
      if (inner === '' || !bracketParts(inner).every((part) => BRACKET_PART.test(part))) return `has '[${inner}]', which is not an index, slice, name or *`;
      i = close + 1;
    } else if (filters && /^\s*\|/.test(trimmed.slice(i))) {
      return `ends in '${trimmed.slice(i).trim()}': '|' is not JSONPath, and config-db's JSONPath parser (ojg) refuses it too, so such a field fails every run there; a field takes the path's first match, so write the path alone`;
    } else {
      return `has an unexpected '${c ?? ''}' at position ${i}`;
    }
  }
  try {
    JSONPath({ path: trimmed, json: {}, eval: filters ? filterEvaluator : false, wrap: true });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return null;
}

/**
 * Why a JSONPath cannot be used, or null when it can, for a reader that evaluates no filter or script (`eval: false`):
 * the topology spec checks its lookups by this grammar.
 */
export function jsonPathProblem(text: string): string | null {
  return problemOf(text, false);
}

/** The same for scraper fields, which also take the filters of json-path-filter.ts (evaluated as config-db does). */
export function scraperJsonPathProblem(text: string): string | null {
  return problemOf(text, true);
}

const checked = new Map<string, string | null>();

/**
 * All matches of a scraper JSONPath. The path is checked again before it runs, so one stored before these rules (or
 * written past them) never reaches jsonpath-plus with a script; filters go to filterEvaluator, never to JavaScript.
 */
export function evaluateScraperJsonPath(path: string, document: object, resultType: 'value' | 'all'): unknown {
  let problem = checked.get(path);
  if (problem === undefined) {
    problem = scraperJsonPathProblem(path);
    if (checked.size < 1000) checked.set(path, problem);
  }
  if (problem !== null) throw new Error(`JSONPath '${path}' ${problem}`);
  return JSONPath({ path, json: document, eval: filterEvaluator, wrap: true, resultType });
}
