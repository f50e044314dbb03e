import { shebangOf } from '@opsdeck/shared';

/**
 * Where a template's values land in code (ADR 0071). A template of a script, query, URL or body is rendered with each
 * `{{ value }}` written as a marker that carries the value; the text around the markers is the template's own (static
 * text, and whatever `{{ if }}` or `{{ range }}` chose), so it is the author's code. Each function here reads that code
 * with a small lexer and puts every value where it can only ever be one value: a shell variable reference quoted for
 * its place, a bound SQL parameter, a percent-encoded URL part, a JSON-escaped string. A value is never read as code.
 */

export class PlacementError extends Error {}

const MARK_START = '\u0002';
const MARK_END = '\u0003';
const MARKER = new RegExp(`${MARK_START}([A-Za-z0-9_-]*)${MARK_END}`, 'g');
const MARKER_AT = new RegExp(`^${MARK_START}([A-Za-z0-9_-]*)${MARK_END}`);

/** The marker standing for `value` in rendered code. */
export function markValue(value: string): string {
  return `${MARK_START}${Buffer.from(value, 'utf8').toString('base64url')}${MARK_END}`;
}

/** Whether template text holds the characters markers are made of (refused at save: they would forge one). */
export function holdsMarkerCharacters(text: string): boolean {
  return text.includes(MARK_START) || text.includes(MARK_END);
}

function valueOf(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/** The text with every marker replaced by its value as it is: for places that are not code. */
export function unmarked(text: string): string {
  return text.replace(MARKER, (_match, encoded: string) => valueOf(encoded));
}

export function holdsMarkers(text: string): boolean {
  return text.includes(MARK_START);
}

interface Marker {
  value: string;
  length: number;
}

function markerAt(text: string, position: number): Marker | null {
  if (text[position] !== MARK_START) return null;
  const match = MARKER_AT.exec(text.slice(position));
  if (match === null) throw new PlacementError('a rendered value could not be read back');
  return { value: valueOf(match[1] ?? ''), length: match[0].length };
}

/** The environment variable the n-th value of a script reaches it through. */
export function scriptValueName(index: number): string {
  return `OPSDECK_TEMPLATE_${index}`;
}

type ShellState = 'plain' | 'double' | 'single' | 'ansi' | 'comment' | 'brace' | 'arithmetic' | 'backtick';

interface Heredoc {
  delimiter: string;
  expands: boolean;
  stripTabs: boolean;
}

/** The interpreters whose scripts take templates through placeInPowerShell. */
export const POWERSHELL_INTERPRETERS: ReadonlySet<string> = new Set(['pwsh', 'powershell']);

/** The non-POSIX interpreter a `#!` line names (python, pwsh, node…), or null for a shell or no `#!` line. */
export function scriptInterpreter(script: string): string | null {
  const shebang = shebangOf(script);
  return shebang === null || shebang.kind === 'shell' ? null : shebang.base;
}

/**
 * The script with every marker replaced by a reference to an environment variable holding its value, quoted for the
 * place it stands: `"${V}"` outside quotes, `${V}` inside double quotes or an expanding here-document, `'"${V}"'`
 * inside single quotes (the quotes are closed around it). Refused inside arithmetic (bash evaluates a variable's text
 * there as an expression), a quoted here-document and after a backslash. A marker in a comment is dropped.
 */
export function placeInShell(script: string): { script: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const stack: ShellState[] = ['plain'];
  const heredocs: Heredoc[] = [];
  let body: Heredoc | null = null;
  let lineStart = 0;
  let out = '';
  let count = 0;
  const state = (): ShellState => stack[stack.length - 1] ?? 'plain';
  const reference = (value: string): string => {
    count += 1;
    const name = scriptValueName(count);
    env[name] = value;
    return `\${${name}}`;
  };
  let i = 0;
  while (i < script.length) {
    const marker = markerAt(script, i);
    if (marker !== null) {
      out += shellReference(body, state(), () => reference(marker.value));
      i += marker.length;
      continue;
    }
    const char = script[i] ?? '';
    if (char === '\\' && script[i + 1] === MARK_START && (body !== null || state() !== 'single')) {
      throw new PlacementError('a template value follows a backslash in the script; remove the backslash');
    }
    if (body !== null) {
      if (char === '\n') {
        const line = script.slice(lineStart, i);
        out += char;
        i += 1;
        lineStart = i;
        if ((body.stripTabs ? line.replace(/^\t+/, '') : line) === body.delimiter) body = heredocs.shift() ?? null;
        continue;
      }
      out += char;
      i += 1;
      continue;
    }
    const consumed = shellStep(script, i, stack, heredocs);
    out += script.slice(i, i + consumed);
    i += consumed;
    if (char === '\n' && state() !== 'single' && state() !== 'double') {
      lineStart = i;
      if (heredocs.length > 0) body = heredocs.shift() ?? null;
    }
  }
  return { script: out, env };
}

function shellReference(body: Heredoc | null, state: ShellState, reference: () => string): string {
  if (body !== null) {
    if (!body.expands) throw new PlacementError(`a template value is inside a quoted here-document (<<'${body.delimiter}'), where the shell cannot expand it; unquote the delimiter`);
    return reference();
  }
  switch (state) {
    case 'comment':
      return '';
    case 'arithmetic':
      throw new PlacementError('a template value is inside $(( )) arithmetic, where bash would evaluate its text as an expression; assign it to a variable and check it first');
    case 'double':
      return reference();
    case 'single':
      return `'"${reference()}"'`;
    case 'ansi':
      return `'"${reference()}"$'`;
    default:
      return `"${reference()}"`;
  }
}

/** Reads one lexical step of the script at `i`, updating the quoting stack; returns how many characters it took. */
function shellStep(script: string, i: number, stack: ShellState[], heredocs: Heredoc[]): number {
  const state = stack[stack.length - 1] ?? 'plain';
  const char = script[i] ?? '';
  const next = script[i + 1] ?? '';
  switch (state) {
    case 'single':
      if (char === "'") stack.pop();
      return 1;
    case 'ansi':
      if (char === '\\') return 2;
      if (char === "'") stack.pop();
      return 1;
    case 'comment':
      if (char === '\n') stack.pop();
      return 1;
    case 'double':
      if (char === '\\') return 2;
      if (char === '"') {
        stack.pop();
        return 1;
      }
      return expansionStep(script, i, stack) ?? 1;
    case 'arithmetic':
      if (char === ')' && next === ')') {
        stack.pop();
        return 2;
      }
      return 1;
    default:
      return plainStep(script, i, stack, heredocs);
  }
}

/** `$(`, `${`, `$((` and backticks, which open a new context inside plain text or double quotes; null otherwise. */
function expansionStep(script: string, i: number, stack: ShellState[]): number | null {
  const char = script[i] ?? '';
  if (char === '`') {
    if (stack[stack.length - 1] === 'backtick') stack.pop();
    else stack.push('backtick');
    return 1;
  }
  if (char !== '$') return null;
  if (script.startsWith('$((', i)) {
    stack.push('arithmetic');
    return 3;
  }
  if (script.startsWith('$(', i)) {
    stack.push('plain');
    return 2;
  }
  if (script.startsWith('${', i)) {
    stack.push('brace');
    return 2;
  }
  return null;
}

function plainStep(script: string, i: number, stack: ShellState[], heredocs: Heredoc[]): number {
  const state = stack[stack.length - 1] ?? 'plain';
  const char = script[i] ?? '';
  if (char === '\\') return 2;
  if (char === "'") {
    stack.push('single');
    return 1;
  }
  if (char === '"') {
    stack.push('double');
    return 1;
  }
  if (script.startsWith("$'", i)) {
    stack.push('ansi');
    return 2;
  }
  if (char === '#' && (i === 0 || /[\s;&|(]/.test(script[i - 1] ?? ' '))) {
    stack.push('comment');
    return 1;
  }
  if (state === 'brace' && char === '}') {
    stack.pop();
    return 1;
  }
  if (char === ')' && stack.length > 1 && state === 'plain') {
    stack.pop();
    return 1;
  }
  if (script.startsWith('((', i) && (i === 0 || /[\s;&|]/.test(script[i - 1] ?? ' '))) {
    stack.push('arithmetic');
    return 2;
  }
  if (script.startsWith('<<<', i)) return 3;
  if (script.startsWith('<<', i)) return heredocStep(script, i, heredocs);
  const expansion = expansionStep(script, i, stack);
  if (expansion !== null) return expansion;
  if (char === '(') stack.push('plain');
  return 1;
}

function heredocStep(script: string, i: number, heredocs: Heredoc[]): number {
  const match = /^<<(-?)\s*(?:'([^']*)'|"([^"]*)"|\\?([A-Za-z0-9_.-]+))/.exec(script.slice(i));
  if (match === null) return 2;
  const quoted = match[2] ?? match[3];
  heredocs.push({ delimiter: quoted ?? match[4] ?? '', expands: quoted === undefined && !match[0].includes('\\'), stripTabs: match[1] === '-' });
  return match[0].length;
}

export type SqlDialect = 'postgres' | 'mysql';

const IDENTIFIER_KEYWORDS = /\b(from|join|into|update|table|index|schema|database|view|sequence|truncate|grant|on|as|by|set)\s*$/i;
const TYPED_LITERAL = /\b(date|time|timestamp|timestamptz|interval)\s*$/i;

type PowerShellState = 'code' | 'double' | 'single' | 'comment' | 'block-comment' | 'here-double' | 'here-single';

/**
 * The PowerShell script with every marker replaced by `${env:V}`, a variable holding its value (Mission Control runs
 * `#! pwsh` scripts): PowerShell expands it, in code and inside double quotes and `@" "@` here-strings alike, as one
 * value whose text is never parsed again. Refused inside single quotes and `@' '@` here-strings, which expand nothing,
 * and after a backtick (its escape); a marker in a comment is dropped.
 */
export function placeInPowerShell(script: string): { script: string; env: Record<string, string> } {
  const env: Record<string, string> = {};
  let state: PowerShellState = 'code';
  let out = '';
  let count = 0;
  let i = 0;
  const atLineStart = (): boolean => i === 0 || script[i - 1] === '\n';
  while (i < script.length) {
    const marker = markerAt(script, i);
    if (marker !== null) {
      if (state === 'single' || state === 'here-single') {
        throw new PlacementError("a template value is inside a single-quoted PowerShell string, which expands nothing; write it in double quotes");
      }
      if (state !== 'comment' && state !== 'block-comment') {
        count += 1;
        const name = scriptValueName(count);
        env[name] = marker.value;
        out += `\${env:${name}}`;
      }
      i += marker.length;
      continue;
    }
    const char = script[i] ?? '';
    const next = script[i + 1] ?? '';
    if (char === '`' && next === MARK_START && (state === 'code' || state === 'double' || state === 'here-double')) {
      throw new PlacementError('a template value follows a backtick (PowerShell\'s escape) in the script; remove the backtick');
    }
    let take = 1;
    switch (state) {
      case 'code':
        if (char === '<' && next === '#') {
          state = 'block-comment';
          take = 2;
        } else if (char === '#') state = 'comment';
        else if (char === '`') take = 2;
        else if (char === "'") state = 'single';
        else if (char === '"') state = 'double';
        else if (char === '@' && (next === '"' || next === "'") && /^[ \t]*\r?\n/.test(script.slice(i + 2))) {
          state = next === '"' ? 'here-double' : 'here-single';
          take = 2;
        }
        break;
      case 'comment':
        if (char === '\n') state = 'code';
        break;
      case 'block-comment':
        if (char === '#' && next === '>') {
          state = 'code';
          take = 2;
        }
        break;
      case 'single':
        if (char === "'" && next === "'") take = 2;
        else if (char === "'") state = 'code';
        break;
      case 'double':
        if (char === '`') take = 2;
        else if (char === '"' && next === '"') take = 2;
        else if (char === '"') state = 'code';
        break;
      case 'here-double':
      case 'here-single': {
        const closing = state === 'here-double' ? '"@' : "'@";
        if (atLineStart() && script.startsWith(closing, i)) {
          state = 'code';
          take = 2;
        } else if (state === 'here-double' && char === '`') take = 2;
        break;
      }
    }
    out += script.slice(i, i + take);
    i += take;
  }
  return { script: out, env };
}

/**
 * The query with every marker replaced by a bound parameter: `$n` after the action's own args (postgres) or `?` in
 * its place among them (mysql, whose parameters are positional). A marker inside a string literal turns the literal
 * into a concatenation with the parameter (or the parameter alone when it is the whole literal); in a typed literal
 * (`interval '{{.n}} days'`) that becomes a CAST. Refused where a value would be a name: quoted identifiers, after
 * FROM, JOIN, INTO, UPDATE… or beside a dot, and inside dollar-quoted bodies. A marker in a comment is dropped.
 */
export function placeInSql(query: string, dialect: SqlDialect, args: readonly string[]): { query: string; args: string[] } {
  const postgresArgs = [...args];
  const slots: Array<{ given: true } | { given: false; value: string }> = [];
  let out = '';
  const parameter = (value: string): string => {
    if (dialect === 'mysql') {
      slots.push({ given: false, value });
      return '?';
    }
    postgresArgs.push(value);
    return `$${postgresArgs.length}`;
  };
  let i = 0;
  while (i < query.length) {
    const marker = markerAt(query, i);
    if (marker !== null) {
      if (IDENTIFIER_KEYWORDS.test(out) || /\.\s*$/.test(out) || query[i + marker.length] === '.') {
        throw new PlacementError('a template value stands where the query names a table, column or schema; names cannot be bound parameters: write the name in the query');
      }
      out += parameter(marker.value);
      i += marker.length;
      continue;
    }
    const char = query[i] ?? '';
    if (char === "'" || ((char === 'E' || char === 'e') && query[i + 1] === "'" && !/[A-Za-z0-9_]/.test(query[i - 1] ?? ' '))) {
      const literal = sqlLiteral(query, char === "'" ? i : i + 1, dialect === 'mysql' || char !== "'");
      const prefix = char === "'" ? '' : char;
      if (literal.parts.every((part) => typeof part === 'string')) {
        out += query.slice(i, literal.end);
      } else {
        const typed = TYPED_LITERAL.exec(out);
        if (typed !== null) out = out.slice(0, typed.index);
        const expression = concatenation(literal.parts, prefix, dialect, parameter);
        out += typed === null ? expression : `CAST(${expression} AS ${typed[1] ?? ''})`;
      }
      i = literal.end;
      continue;
    }
    if (char === '"' || (char === '`' && dialect === 'mysql')) {
      const end = query.indexOf(char, i + 1);
      const close = end === -1 ? query.length : end + 1;
      if (holdsMarkers(query.slice(i, close))) throw new PlacementError('a template value is inside a quoted identifier; names cannot be bound parameters');
      out += query.slice(i, close);
      i = close;
      continue;
    }
    if (char === '-' && query[i + 1] === '-') {
      const end = query.indexOf('\n', i);
      const close = end === -1 ? query.length : end;
      out += query.slice(i, close).replace(MARKER, '');
      i = close;
      continue;
    }
    if (char === '/' && query[i + 1] === '*') {
      const end = query.indexOf('*/', i + 2);
      const close = end === -1 ? query.length : end + 2;
      out += query.slice(i, close).replace(MARKER, '');
      i = close;
      continue;
    }
    const dollar = dialect === 'postgres' ? /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(i)) : null;
    if (dollar !== null && !/[A-Za-z0-9_]/.test(query[i - 1] ?? ' ')) {
      const end = query.indexOf(dollar[0], i + dollar[0].length);
      const close = end === -1 ? query.length : end + dollar[0].length;
      if (holdsMarkers(query.slice(i, close))) throw new PlacementError(`a template value is inside a dollar-quoted body (${dollar[0]}); pass it as a parameter of the function instead`);
      out += query.slice(i, close);
      i = close;
      continue;
    }
    if (char === '?' && dialect === 'mysql') slots.push({ given: true });
    out += char;
    i += 1;
  }
  if (dialect === 'postgres') return { query: out, args: postgresArgs };
  const given = [...args];
  const ordered = slots.map((slot) => (slot.given ? (given.shift() ?? '') : slot.value));
  return { query: out, args: [...ordered, ...given] };
}

interface SqlLiteral {
  /** Literal text (as written, escapes kept) and values, in order. */
  parts: Array<string | { value: string }>;
  end: number;
}

function sqlLiteral(query: string, quoteAt: number, backslashEscapes: boolean): SqlLiteral {
  const parts: SqlLiteral['parts'] = [];
  let current = '';
  let i = quoteAt + 1;
  while (i < query.length) {
    const marker = markerAt(query, i);
    if (marker !== null) {
      parts.push(current, { value: marker.value });
      current = '';
      i += marker.length;
      continue;
    }
    const char = query[i] ?? '';
    if (backslashEscapes && char === '\\' && query[i + 1] === MARK_START) throw new PlacementError('a template value follows a backslash in a string literal; remove the backslash');
    if (backslashEscapes && char === '\\') {
      current += query.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === "'") {
      if (query[i + 1] === "'") {
        current += "''";
        i += 2;
        continue;
      }
      parts.push(current);
      return { parts, end: i + 1 };
    }
    current += char;
    i += 1;
  }
  throw new PlacementError('the query has an unterminated string literal');
}

function concatenation(parts: SqlLiteral['parts'], prefix: string, dialect: SqlDialect, parameter: (value: string) => string): string {
  const pieces = parts.flatMap((part) => {
    if (typeof part !== 'string') return [dialect === 'postgres' ? `${parameter(part.value)}::text` : parameter(part.value)];
    return part === '' ? [] : [`${prefix}'${part}'`];
  });
  if (pieces.length === 1 && dialect === 'postgres') return pieces[0]?.replace(/::text$/, '') ?? "''";
  if (dialect === 'mysql') return pieces.length === 1 ? (pieces[0] ?? "''") : `CONCAT(${pieces.join(', ')})`;
  return `(${pieces.join(' || ')})`;
}

const HOST_VALUE = /^[A-Za-z0-9.\-_:[\]%]*$/;

/**
 * The URL with every marker replaced by its value percent-encoded for its part: path, query and fragment values are
 * encoded whole (`/`, `?`, `&`, `=` and `#` included), so a value is one segment or one query value. In the scheme,
 * host and port a value may hold only host characters. A URL that is one marker alone is the value as it is.
 */
export function placeInUrl(url: string): string {
  const whole = MARKER_AT.exec(url);
  if (whole !== null && whole[0].length === url.length) return valueOf(whole[1] ?? '');
  const schemeEnd = url.indexOf('://');
  let part: 'authority' | 'path' | 'query' | 'fragment' = schemeEnd === -1 ? 'path' : 'authority';
  let out = '';
  let i = 0;
  while (i < url.length) {
    const marker = markerAt(url, i);
    if (marker !== null) {
      if (part === 'authority') {
        if (!HOST_VALUE.test(marker.value)) throw new PlacementError('a template value in the URL\'s host holds characters a host cannot have');
        out += marker.value;
      } else out += encodeURIComponent(marker.value).replace(/^\.{1,2}$/, (dots) => dots.replaceAll('.', '%2E'));
      i += marker.length;
      continue;
    }
    const char = url[i] ?? '';
    if (part === 'authority' && i > schemeEnd + 2 && (char === '/' || char === '?' || char === '#')) part = char === '/' ? 'path' : char === '?' ? 'query' : 'fragment';
    else if (part === 'path' && (char === '?' || char === '#')) part = char === '?' ? 'query' : 'fragment';
    else if (part === 'query' && char === '#') part = 'fragment';
    out += char;
    i += 1;
  }
  return out;
}

function isJsonBody(body: string, contentType: string | undefined): boolean {
  if (contentType !== undefined) return /json/i.test(contentType);
  return /^\s*[{[]/.test(body);
}

/**
 * The body with every marker replaced by its value: JSON-escaped inside a JSON string, a JSON value outside one (the
 * value itself when it is JSON, else a JSON string), percent-encoded in a form body, and as it is in any other body.
 */
export function placeInBody(body: string, contentType: string | undefined): string {
  if (!holdsMarkers(body)) return body;
  if (contentType !== undefined && /x-www-form-urlencoded/i.test(contentType)) return body.replace(MARKER, (_match, encoded: string) => encodeURIComponent(valueOf(encoded)));
  if (!isJsonBody(body, contentType)) return unmarked(body);
  let out = '';
  let inString = false;
  let i = 0;
  while (i < body.length) {
    const marker = markerAt(body, i);
    if (marker !== null) {
      out += inString ? JSON.stringify(marker.value).slice(1, -1) : jsonValue(marker.value);
      i += marker.length;
      continue;
    }
    const char = body[i] ?? '';
    if (inString && char === '\\' && body[i + 1] === MARK_START) throw new PlacementError('a template value follows a backslash in a JSON string; remove the backslash');
    if (inString && char === '\\') {
      out += body.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === '"') inString = !inString;
    out += char;
    i += 1;
  }
  return out;
}

function jsonValue(value: string): string {
  try {
    JSON.parse(value);
    return value.trim();
  } catch {
    return JSON.stringify(value);
  }
}

/** Whether a header value holds CR, LF or NUL, which would end the header line. */
export function breaksHeader(value: string): boolean {
  return /[\r\n]/.test(value) || value.includes('\0');
}

/** A header value, refused when it holds a line break or NUL: it would end the header and start another. */
export function checkedHeaderValue(name: string, value: string): string {
  if (breaksHeader(value)) throw new PlacementError(`the value of header ${name} holds a line break or NUL; a header value is one line`);
  return value;
}
