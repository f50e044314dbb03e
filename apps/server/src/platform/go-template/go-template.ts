import { JqPathError, parseJqPath } from './jq-path';

/**
 * Go's text/template language as Mission Control writes playbook templates (`{{.config.name}}`,
 * `{{ .params.x | lower }}`, `{{ if .params.y }}…{{ end }}`, `{{ range $i, $v := .list }}`, `{{- -}}`) and
 * canary-checker writes health checks' `display`, `test` and `transform` templates, parsed and evaluated here over
 * plain data: no methods of the host, no files, no environment. Functions come from a table the caller gives
 * (template-functions.ts, plus its own); an unknown one is a parse error, so a template that cannot run is refused when
 * it is saved. Evaluation counts its steps and output against the caller's limits, so a template cannot stall a worker.
 */

export class GoTemplateError extends Error {}

/** What Go prints for a map key that is not there (text/template's default `missingkey`). */
export const NO_VALUE = Symbol('no value');

export type GoFunction = (...args: unknown[]) => unknown;

/** A value with methods a template may call (`(now).Format "2006-01-02"`); nothing else has methods. */
export interface MethodValue {
  readonly methods: Readonly<Record<string, GoFunction>>;
  print(): string;
}

export function isMethodValue(value: unknown): value is MethodValue {
  return typeof value === 'object' && value !== null && 'methods' in value && 'print' in value && typeof (value as MethodValue).print === 'function';
}

type Operand =
  | { kind: 'dot' }
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'function'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'pipe'; pipeline: Pipeline; path: string[] };

interface Command {
  operands: Operand[];
}

interface Pipeline {
  declare: string[];
  /** `=` rather than `:=`: assigns variables declared earlier. */
  assign: boolean;
  commands: Command[];
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'output'; pipeline: Pipeline }
  | { kind: 'if' | 'with'; pipeline: Pipeline; body: Node[]; otherwise: Node[] }
  | { kind: 'range'; pipeline: Pipeline; body: Node[]; otherwise: Node[] };

export interface GoTemplate {
  nodes: Node[];
}

/** Longest template text parsed, in characters. */
const PARSE_LIMIT = 500_000;
const NESTING_LIMIT = 32;
const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

interface Action {
  /** The text inside the delimiters, without trim markers. */
  body: string;
  at: number;
}

type Piece = { kind: 'text'; text: string } | { kind: 'action'; action: Action };

/**
 * Which `$( )` actions a text holds beside `{{ }}`. Mission Control renders every playbook template a second time with
 * `$(` and `)` as delimiters (duty's default delimiter sets): `all` reads each `$(` as an action, as it does; `fields`
 * only one that starts with a field (`$(.params.x)`), for shell scripts, where any other `$(` is the shell's own
 * command substitution; `none` (checks, scrapers, notifications) reads `{{ }}` alone.
 */
export type DollarActions = 'none' | 'all' | 'fields';

/** A `$(` that opens a field action: `$(.params.x)`, `$(- .x -)`. */
const DOLLAR_FIELD = /^\$\(-?\s*\.[A-Za-z_]/;

interface Opening {
  at: number;
  dollar: boolean;
}

/** The delimiters of a text's `{{ }}` actions: Go's, or those a `# gotemplate:` header names. */
interface Delimiters {
  left: string;
  right: string;
}

const GO_DELIMITERS: Delimiters = { left: '{{', right: '}}' };

/** gomplate's template header: among the `#` lines a text starts with, `# gotemplate: left-delim=… right-delim=…`. */
export const GO_TEMPLATE_HEADER = '# gotemplate: ';

export interface TemplateHeader {
  /** The text without the header line. */
  text: string;
  delimiters: Delimiters;
}

/**
 * A text's `# gotemplate:` header, as gomplate reads one (Mission Control writes `# gotemplate: left-delim=$[[
 * right-delim=]]` in scripts whose own syntax uses `{{`): looked for among the `#` lines at the start of the text (a
 * `#!` line, comments; a YAML `---` is passed over), removed from the text, and its delimiters used instead of `{{` and
 * `}}` (one left out stays Go's). Null when there is none. A field gomplate does not read, or a delimiter with a space,
 * is refused rather than passed over.
 */
export function templateHeader(text: string): TemplateHeader | null {
  let offset = 0;
  for (const line of text.split('\n')) {
    const next = offset + line.length + 1;
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (bare === '---') {
      offset = next;
      continue;
    }
    if (!bare.startsWith('#')) return null;
    if (bare.startsWith(GO_TEMPLATE_HEADER)) {
      const delimiters = { ...GO_DELIMITERS };
      for (const field of bare.slice(GO_TEMPLATE_HEADER.length).trim().split(/\s+/).filter((part) => part !== '')) {
        const equals = field.indexOf('=');
        const key = equals === -1 ? field : field.slice(0, equals);
        const value = equals === -1 ? '' : field.slice(equals + 1);
        if (key !== 'left-delim' && key !== 'right-delim') throw new GoTemplateError(`the # gotemplate: header names ${JSON.stringify(field)}: it reads left-delim=… and right-delim=…`);
        if (value === '') throw new GoTemplateError(`the # gotemplate: header gives ${key} no delimiter`);
        if (key === 'left-delim') delimiters.left = value;
        else delimiters.right = value;
      }
      return { text: text.slice(0, offset) + text.slice(Math.min(next, text.length)), delimiters };
    }
    offset = next;
  }
  return null;
}

/** Whether a text may hold `{{ }}` actions, or actions between the delimiters of its `# gotemplate:` header. */
export function mayHoldGoActions(text: string): boolean {
  return text.includes('{{') || text.includes(GO_TEMPLATE_HEADER);
}

function nextOpening(text: string, from: number, dollar: DollarActions, left: string): Opening | null {
  const braces = text.indexOf(left, from);
  let found = dollar === 'none' ? -1 : text.indexOf('$(', from);
  while (found !== -1 && (braces === -1 || found < braces) && dollar === 'fields' && !DOLLAR_FIELD.test(text.slice(found, found + 64))) {
    found = text.indexOf('$(', found + 2);
  }
  if (found !== -1 && (braces === -1 || found < braces)) return { at: found, dollar: true };
  return braces === -1 ? null : { at: braces, dollar: false };
}

/**
 * Splits the text at its actions, applying the trim markers (`{{-`, `-}}`, `$(-`, `-)`) to the text around them, and
 * drops comments. One pass reads both delimiter sets, so text a value renders to is never read as a template again
 * (Mission Control's second pass would run a `$(…)` a parameter holds).
 */
function pieces(text: string, dollar: DollarActions, delimiters: Delimiters): Piece[] {
  const { left, right } = delimiters;
  const out: Piece[] = [];
  let position = 0;
  let trimNext = false;
  while (position < text.length) {
    const opening = nextOpening(text, position, dollar, left);
    let literal = opening === null ? text.slice(position) : text.slice(position, opening.at);
    if (trimNext) literal = literal.replace(/^\s+/, '');
    if (opening === null) {
      if (literal !== '') out.push({ kind: 'text', text: literal });
      break;
    }
    const open = opening.at;
    const openLength = opening.dollar ? 2 : left.length;
    const trimBefore = /^-\s/.test(text.slice(open + openLength, open + openLength + 2));
    if (trimBefore) literal = literal.replace(/\s+$/, '');
    if (literal !== '') out.push({ kind: 'text', text: literal });
    const start = open + openLength + (trimBefore ? 1 : 0);
    const close = opening.dollar ? closingParenOf(text, start) : closingOf(text, start, right);
    const closeLength = opening.dollar ? 1 : right.length;
    if (close === -1) throw new GoTemplateError(`unclosed action at character ${open + 1}`);
    const inner = text.slice(start, close);
    const trimAfter = /\s-$/.test(inner) && inner.length >= 2;
    const body = (trimAfter ? inner.slice(0, -2) : inner).trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) out.push({ kind: 'action', action: { body, at: open + 1 } });
    trimNext = trimAfter;
    position = close + closeLength;
  }
  return out;
}

/** The closing delimiter that ends the action starting at `start`, skipping one inside quoted strings; -1 when there is none. */
function closingOf(text: string, start: number, right: string): number {
  return scanAction(text, start, (i) => text.startsWith(right, i));
}

/** The `)` that ends a `$(` action: the first outside quotes and the action's own parentheses. */
function closingParenOf(text: string, start: number): number {
  return scanAction(text, start, (i, depth) => depth === 0 && text[i] === ')');
}

function scanAction(text: string, start: number, closes: (index: number, depth: number) => boolean): number {
  let quote: string | null = null;
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (quote !== null) {
      if (char === '\\' && quote === '"') i += 1;
      else if (char === quote) quote = null;
      continue;
    }
    if (closes(i, depth)) return i;
    if (char === '"' || char === '`' || char === "'") quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
  }
  return -1;
}

type Token =
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'identifier'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'dot' }
  | { kind: 'symbol'; text: '|' | '(' | ')' | ':=' | '=' | ',' }
  | { kind: 'path'; path: string[] };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/;
/**
 * Field names may hold `-` after their first character, so checks read HTTP headers as `{{.headers.Content-Type}}`;
 * Go refuses `-` right after a field, so no template Go runs reads differently.
 */
const FIELD_CHAIN = /^(\.[A-Za-z_][A-Za-z0-9_-]*)+/;
const NUMBER = /^[-+]?(0x[0-9a-fA-F]+|\d+(\.\d+)?([eE][-+]?\d+)?)/;

const CHARACTER_ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, '\\': 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, v: 11 };

/**
 * A Go character constant is one character (or one escape) and prints as its code: `'x'` is 120. Go refuses
 * `'.status'` as malformed, so a template written with single-quoted text fails here as it does in Mission Control
 * instead of reading only its first character.
 */
function characterConstant(literal: string): number {
  const inside = literal.slice(1, -1);
  const characters = [...inside];
  if (characters.length === 1 && inside !== '\\') return inside.codePointAt(0) ?? 0;
  if (characters.length === 2 && characters[0] === '\\') {
    const code = CHARACTER_ESCAPES[characters[1] ?? ''];
    if (code !== undefined) return code;
  }
  throw new GoTemplateError(`malformed character constant: ${literal} (text in a template goes in double quotes or backticks)`);
}

function unquote(literal: string): string {
  try {
    const parsed: unknown = JSON.parse(literal);
    if (typeof parsed === 'string') return parsed;
  } catch {
    // Reported below.
  }
  throw new GoTemplateError(`${literal} is not a valid string`);
}

function chain(text: string): string[] {
  return text.split('.').filter((part) => part !== '');
}

function tokenize(body: string): Token[] {
  const tokens: Token[] = [];
  let rest = body;
  while ((rest = rest.trimStart()) !== '') {
    const two = rest.slice(0, 2);
    if (two === ':=') {
      tokens.push({ kind: 'symbol', text: ':=' });
      rest = rest.slice(2);
      continue;
    }
    const char = rest[0] ?? '';
    if (char === '|' || char === '(' || char === ')' || char === '=' || char === ',') {
      tokens.push({ kind: 'symbol', text: char });
      rest = rest.slice(1);
      if (char === ')') {
        const fields = FIELD_CHAIN.exec(rest);
        if (fields !== null) {
          tokens.push({ kind: 'path', path: chain(fields[0]) });
          rest = rest.slice(fields[0].length);
        }
      }
      continue;
    }
    if (char === '"') {
      const end = closingQuote(rest);
      tokens.push({ kind: 'literal', value: unquote(rest.slice(0, end + 1)) });
      rest = rest.slice(end + 1);
      continue;
    }
    if (char === '`') {
      const end = rest.indexOf('`', 1);
      if (end === -1) throw new GoTemplateError('unterminated raw string');
      tokens.push({ kind: 'literal', value: rest.slice(1, end) });
      rest = rest.slice(end + 1);
      continue;
    }
    if (char === "'") {
      const end = rest.indexOf("'", 1);
      if (end === -1) throw new GoTemplateError('unterminated character constant');
      tokens.push({ kind: 'literal', value: characterConstant(rest.slice(0, end + 1)) });
      rest = rest.slice(end + 1);
      continue;
    }
    if (char === '$') {
      const match = /^\$[A-Za-z0-9_]*/.exec(rest)?.[0] ?? '$';
      rest = rest.slice(match.length);
      const fields = FIELD_CHAIN.exec(rest);
      tokens.push({ kind: 'variable', name: match, path: fields === null ? [] : chain(fields[0]) });
      if (fields !== null) rest = rest.slice(fields[0].length);
      continue;
    }
    if (char === '.') {
      const fields = FIELD_CHAIN.exec(rest);
      if (fields === null) {
        tokens.push({ kind: 'dot' });
        rest = rest.slice(1);
      } else {
        tokens.push({ kind: 'field', path: chain(fields[0]) });
        rest = rest.slice(fields[0].length);
      }
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number !== null && /^[-+]?\d/.test(rest)) {
      tokens.push({ kind: 'literal', value: Number(number[0]) });
      rest = rest.slice(number[0].length);
      continue;
    }
    const identifier = IDENTIFIER.exec(rest);
    if (identifier === null) throw new GoTemplateError(`unexpected ${JSON.stringify(char)} in action`);
    const name = identifier[0];
    rest = rest.slice(name.length);
    if (name === 'true' || name === 'false') tokens.push({ kind: 'literal', value: name === 'true' });
    else if (name === 'nil') tokens.push({ kind: 'literal', value: null });
    else tokens.push({ kind: 'identifier', name });
  }
  return tokens;
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  throw new GoTemplateError('unterminated quoted string');
}

/** A jq expression written in the template is judged at save, as a function name is, not first when it renders. */
function checkJqLiteral(operands: Operand[]): void {
  const [call, expression] = operands;
  if (call?.kind !== 'function' || (call.name !== 'jq' && call.name !== 'coll.JQ')) return;
  if (expression?.kind !== 'literal' || typeof expression.value !== 'string') return;
  try {
    parseJqPath(expression.value);
  } catch (error) {
    if (error instanceof JqPathError) throw new GoTemplateError(error.message);
    throw error;
  }
}

class PipelineParser {
  private position = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly functions: ReadonlySet<string>,
    private readonly roots: ReadonlySet<string>,
  ) {}

  parse(): Pipeline {
    const pipeline = this.pipeline(false);
    if (this.position < this.tokens.length) throw new GoTemplateError('unexpected token after the pipeline');
    return pipeline;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isSymbol(text: string): boolean {
    const token = this.peek();
    return token?.kind === 'symbol' && token.text === text;
  }

  private pipeline(nested: boolean): Pipeline {
    const declare: string[] = [];
    let assign = false;
    const first = this.tokens[this.position];
    const second = this.tokens[this.position + 1];
    const third = this.tokens[this.position + 2];
    const fourth = this.tokens[this.position + 3];
    const isDeclare = (token: Token | undefined): boolean => token?.kind === 'symbol' && (token.text === ':=' || token.text === '=');
    if (first?.kind === 'variable' && first.path.length === 0) {
      if (isDeclare(second)) {
        declare.push(first.name);
        assign = second?.kind === 'symbol' && second.text === '=';
        this.position += 2;
      } else if (second?.kind === 'symbol' && second.text === ',' && third?.kind === 'variable' && isDeclare(fourth)) {
        declare.push(first.name, third.name);
        this.position += 4;
      }
    }
    const commands: Command[] = [this.command(nested)];
    while (this.isSymbol('|')) {
      this.position += 1;
      commands.push(this.command(nested));
    }
    return { declare, assign, commands };
  }

  private command(nested: boolean): Command {
    const operands: Operand[] = [];
    for (let token = this.peek(); token !== undefined; token = this.peek()) {
      if (token.kind === 'symbol' && (token.text === '|' || (token.text === ')' && nested))) break;
      operands.push(this.operand());
    }
    if (operands.length === 0) throw new GoTemplateError('missing value for command');
    checkJqLiteral(operands);
    return { operands };
  }

  /** `name`, or `name.field.field` as Go reads it: the function's answer, then fields of it (`getLastAction.result`). */
  private functionOperand(name: string): Operand {
    if (this.functions.has(name)) return { kind: 'function', name };
    const parts = name.split('.');
    for (let cut = parts.length - 1; cut > 0; cut -= 1) {
      const prefix = parts.slice(0, cut).join('.');
      if (this.functions.has(prefix)) {
        const call: Pipeline = { declare: [], assign: false, commands: [{ operands: [{ kind: 'function', name: prefix }] }] };
        return { kind: 'pipe', pipeline: call, path: parts.slice(cut) };
      }
    }
    const unknown = parts[0] ?? name;
    if (this.roots.has(unknown)) return { kind: 'field', path: parts };
    throw new GoTemplateError(`function "${unknown}" not defined ('${unknown}' is not supported by this server)`);
  }

  private operand(): Operand {
    const token = this.peek();
    this.position += 1;
    if (token === undefined) throw new GoTemplateError('missing value');
    switch (token.kind) {
      case 'dot':
        return { kind: 'dot' };
      case 'field':
        return { kind: 'field', path: token.path };
      case 'variable':
        return { kind: 'variable', name: token.name, path: token.path };
      case 'literal':
        return { kind: 'literal', value: token.value };
      case 'identifier':
        if (KEYWORDS.has(token.name)) throw new GoTemplateError(`unexpected ${token.name} in a pipeline`);
        return this.functionOperand(token.name);
      case 'path':
        throw new GoTemplateError('unexpected field chain');
      case 'symbol': {
        if (token.text !== '(') throw new GoTemplateError(`unexpected "${token.text}"`);
        const pipeline = this.pipeline(true);
        if (!this.isSymbol(')')) throw new GoTemplateError('unclosed left paren');
        this.position += 1;
        const after = this.peek();
        if (after?.kind === 'path') {
          this.position += 1;
          return { kind: 'pipe', pipeline, path: after.path };
        }
        return { kind: 'pipe', pipeline, path: [] };
      }
    }
  }
}

export interface GoParseOptions {
  /** Which `$( )` actions the text holds beside `{{ }}` (none unless asked). */
  dollar?: DollarActions;
  /**
   * Top-level keys of the data a bare name reads (`params.x` as `.params.x`), as Mission Control's templater gives each
   * key a function of that name; a function of the same name wins.
   */
  valueRoots?: ReadonlySet<string>;
}

const NO_ROOTS: ReadonlySet<string> = new Set();

interface Frame {
  kind: 'root' | 'if' | 'with' | 'range';
  node: Node | null;
  /** Where nodes go now: the body, or the else branch once `{{ else }}` was met. */
  target: Node[];
  /** An `else if` or `else with` closes with the `end` of the block it is in. */
  chained: boolean;
}

/**
 * Parses a template; `functions` are the names a template may call. Throws GoTemplateError, with the character where
 * the action starts, for anything Go would refuse and for what this server does not run (`define`, `template`,
 * `block`, `break`, `continue`).
 */
export function parseGoTemplate(text: string, functions: ReadonlySet<string>, options: GoParseOptions = {}): GoTemplate {
  if (text.length > PARSE_LIMIT) throw new GoTemplateError(`the template is longer than ${PARSE_LIMIT} characters`);
  const root: Node[] = [];
  const stack: Frame[] = [{ kind: 'root', node: null, target: root, chained: false }];
  const top = (): Frame => stack[stack.length - 1] ?? { kind: 'root', node: null, target: root, chained: false };
  const header = templateHeader(text);
  for (const piece of pieces(header?.text ?? text, options.dollar ?? 'none', header?.delimiters ?? GO_DELIMITERS)) {
    if (piece.kind === 'text') {
      top().target.push({ kind: 'text', text: piece.text });
      continue;
    }
    const { body, at } = piece.action;
    try {
      parseAction(body, stack, top, functions, options.valueRoots ?? NO_ROOTS);
    } catch (error) {
      if (error instanceof GoTemplateError) throw new GoTemplateError(`at character ${at}: ${error.message}`);
      throw error;
    }
  }
  if (stack.length > 1) throw new GoTemplateError(`unexpected end of the template: {{ ${top().kind} }} has no {{ end }}`);
  return { nodes: root };
}

function parseAction(body: string, stack: Frame[], top: () => Frame, functions: ReadonlySet<string>, roots: ReadonlySet<string>): void {
  const keyword = /^([a-z]+)\b/.exec(body)?.[1] ?? '';
  const rest = body.slice(keyword.length);
  const pipeline = (): Pipeline => new PipelineParser(tokenize(rest), functions, roots).parse();
  if (keyword === 'if' || keyword === 'with' || keyword === 'range') {
    if (stack.length > NESTING_LIMIT) throw new GoTemplateError(`blocks nest deeper than ${NESTING_LIMIT}`);
    const children: Node[] = [];
    const node: Node = { kind: keyword, pipeline: pipeline(), body: children, otherwise: [] };
    top().target.push(node);
    stack.push({ kind: keyword, node, target: children, chained: false });
    return;
  }
  if (keyword === 'else') {
    const frame = top();
    if (frame.node === null || frame.node.kind === 'text' || frame.node.kind === 'output') throw new GoTemplateError('unexpected {{ else }}');
    const node = frame.node;
    const chainedKeyword = /^\s*(if|with)\b/.exec(rest)?.[1];
    if (chainedKeyword === 'if' || chainedKeyword === 'with') {
      const inner = rest.replace(/^\s*(if|with)/, '');
      const chained: Node = { kind: chainedKeyword, pipeline: new PipelineParser(tokenize(inner), functions, roots).parse(), body: [], otherwise: [] };
      node.otherwise.push(chained);
      stack.push({ kind: chainedKeyword, node: chained, target: chained.body, chained: true });
      return;
    }
    if (rest.trim() !== '') throw new GoTemplateError('unexpected text after else');
    frame.target = node.otherwise;
    return;
  }
  if (keyword === 'end') {
    if (rest.trim() !== '') throw new GoTemplateError('unexpected text after end');
    if (stack.length === 1) throw new GoTemplateError('unexpected {{ end }}');
    while (top().chained) stack.pop();
    stack.pop();
    return;
  }
  if (KEYWORDS.has(keyword)) throw new GoTemplateError(`{{ ${keyword} }} is not supported here: write the template inline`);
  top().target.push({ kind: 'output', pipeline: new PipelineParser(tokenize(body), functions, roots).parse() });
}

/** Go's truth: false, 0, nil, and empty text, lists and maps are false. */
export function goTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === NO_VALUE || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMethodValue(value)) return true;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isMethodValue(value);
}

/** Text as Go's fmt prints a value with %v. */
export function goPrint(value: unknown): string {
  if (value === NO_VALUE) return '<no value>';
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (isMethodValue(value)) return value.print();
  if (Array.isArray(value)) return `[${value.map(goPrint).join(' ')}]`;
  if (isPlainMap(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goPrint(value[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

export interface GoExecuteOptions {
  functions: Readonly<Record<string, GoFunction>>;
  /** Turns each `{{ value }}` into the text written in its place (go-template's own printing by default). */
  output?: (value: unknown, pipeline: { lastFunction: string | null }) => string;
  /** Functions dropped when they end an output's pipeline (`shellQuote` where the value is placed safely anyway). */
  dropLast?: ReadonlySet<string>;
  maxSteps: number;
  maxOutput: number;
}

interface Scope {
  dot: unknown;
  variables: Map<string, unknown>[];
}

class Evaluator {
  private steps = 0;
  private size = 0;

  constructor(
    private readonly options: GoExecuteOptions,
    private readonly root: unknown,
  ) {}

  private step(): void {
    this.steps += 1;
    if (this.steps > this.options.maxSteps) throw new GoTemplateError(`the template ran more than ${this.options.maxSteps} steps`);
  }

  run(nodes: Node[], scope: Scope, out: string[]): void {
    for (const node of nodes) {
      this.step();
      switch (node.kind) {
        case 'text':
          this.write(out, node.text);
          break;
        case 'output': {
          const value = this.pipeline(node.pipeline, scope, true);
          if (node.pipeline.declare.length > 0) break;
          const last = node.pipeline.commands.at(-1)?.operands[0];
          const lastFunction = last?.kind === 'function' ? last.name : null;
          this.write(out, this.options.output === undefined ? goPrint(value) : this.options.output(value, { lastFunction }));
          break;
        }
        case 'if':
        case 'with': {
          const inner: Scope = { dot: scope.dot, variables: [...scope.variables, new Map()] };
          const value = this.pipeline(node.pipeline, inner, false);
          if (goTruthy(value)) this.run(node.body, node.kind === 'with' ? { ...inner, dot: value } : inner, out);
          else this.run(node.otherwise, scope, out);
          break;
        }
        case 'range':
          this.range(node, scope, out);
          break;
      }
    }
  }

  private range(node: Extract<Node, { kind: 'range' }>, scope: Scope, out: string[]): void {
    const inner: Scope = { dot: scope.dot, variables: [...scope.variables, new Map()] };
    const { declare } = node.pipeline;
    const value = this.pipeline({ ...node.pipeline, declare: [] }, inner, false);
    let entries: Array<[unknown, unknown]>;
    if (Array.isArray(value)) entries = value.map((item, index) => [index, item]);
    else if (isPlainMap(value)) entries = Object.keys(value).sort().map((key) => [key, value[key]]);
    else if (typeof value === 'number' && Number.isInteger(value)) entries = Array.from({ length: Math.max(0, value) }, (_, index) => [index, index]);
    else if (value === null || value === undefined || value === NO_VALUE) entries = [];
    else throw new GoTemplateError(`range can't iterate over ${goPrint(value)}`);
    if (entries.length === 0) {
      this.run(node.otherwise, scope, out);
      return;
    }
    for (const [key, item] of entries) {
      this.step();
      const frame = new Map<string, unknown>();
      if (declare.length === 1 && declare[0] !== undefined) frame.set(declare[0], item);
      if (declare.length === 2 && declare[0] !== undefined && declare[1] !== undefined) {
        frame.set(declare[0], key);
        frame.set(declare[1], item);
      }
      this.run(node.body, { dot: item, variables: [...inner.variables, frame] }, out);
    }
  }

  private write(out: string[], text: string): void {
    this.size += text.length;
    if (this.size > this.options.maxOutput) throw new GoTemplateError(`the template renders more than ${this.options.maxOutput} characters`);
    out.push(text);
  }

  private pipeline(pipeline: Pipeline, scope: Scope, isOutput: boolean): unknown {
    let value: unknown = undefined;
    let piped = false;
    const { commands } = pipeline;
    const dropLast = this.options.dropLast;
    commands.forEach((command, index) => {
      const head = command.operands[0];
      const dropped = isOutput && index === commands.length - 1 && index > 0 && head?.kind === 'function' && command.operands.length === 1 && dropLast?.has(head.name) === true;
      if (dropped) return;
      value = this.command(command, scope, piped ? [value] : []);
      piped = true;
    });
    if (pipeline.declare.length > 0) {
      const name = pipeline.declare[0] ?? '$';
      if (pipeline.assign) {
        const frame = [...scope.variables].reverse().find((variables) => variables.has(name));
        if (frame === undefined) throw new GoTemplateError(`undefined variable: ${name}`);
        frame.set(name, value);
      } else scope.variables[scope.variables.length - 1]?.set(name, value);
    }
    return value;
  }

  private command(command: Command, scope: Scope, piped: unknown[]): unknown {
    const [head, ...rest] = command.operands;
    if (head === undefined) throw new GoTemplateError('empty command');
    if (head.kind === 'function' && (head.name === 'and' || head.name === 'or') && piped.length === 0) return this.shortCircuit(head.name, rest, scope);
    if (head.kind === 'function') {
      const fn = this.options.functions[head.name];
      if (fn === undefined) throw new GoTemplateError(`function "${head.name}" not defined`);
      const args = [...rest.map((operand) => this.operand(operand, scope)), ...piped];
      return this.call(head.name, fn, args);
    }
    if (head.kind === 'field' || head.kind === 'variable' || head.kind === 'pipe') {
      const method = this.method(head, scope, [...rest.map((operand) => this.operand(operand, scope)), ...piped]);
      if (method !== undefined) return method.value;
    }
    if (rest.length > 0 || piped.length > 0) throw new GoTemplateError(`can't give an argument to a non-function ${describe(head)}`);
    return this.operand(head, scope);
  }

  /** `and` and `or` as Go runs them: arguments are evaluated left to right only until the answer is known. */
  private shortCircuit(name: 'and' | 'or', operands: Operand[], scope: Scope): unknown {
    let value: unknown = undefined;
    for (const operand of operands) {
      value = this.operand(operand, scope);
      if (goTruthy(value) === (name === 'or')) return value;
    }
    return value;
  }

  /** A call of a method of a MethodValue (`(now).Format "…"`, `$t.UTC`), or undefined when the operand is no such call. */
  private method(operand: Extract<Operand, { kind: 'field' | 'variable' | 'pipe' }>, scope: Scope, args: unknown[]): { value: unknown } | undefined {
    if (operand.path.length === 0) return undefined;
    const receiver = this.operand({ ...operand, path: operand.path.slice(0, -1) }, scope);
    const name = operand.path[operand.path.length - 1] ?? '';
    if (!isMethodValue(receiver) || !Object.hasOwn(receiver.methods, name)) return undefined;
    const fn = receiver.methods[name];
    return fn === undefined ? undefined : { value: this.call(name, fn, args) };
  }

  private call(name: string, fn: GoFunction, args: unknown[]): unknown {
    this.step();
    try {
      return fn(...args);
    } catch (error) {
      if (error instanceof GoTemplateError) throw error;
      throw new GoTemplateError(`error calling ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private operand(operand: Operand, scope: Scope): unknown {
    switch (operand.kind) {
      case 'dot':
        return scope.dot;
      case 'literal':
        return operand.value;
      case 'function': {
        const fn = this.options.functions[operand.name];
        if (fn === undefined) throw new GoTemplateError(`function "${operand.name}" not defined`);
        return this.call(operand.name, fn, []);
      }
      case 'field':
        return this.walk(scope.dot, operand.path);
      case 'variable': {
        if (operand.name === '$') return this.walk(this.root, operand.path);
        const frame = [...scope.variables].reverse().find((variables) => variables.has(operand.name));
        if (frame === undefined) throw new GoTemplateError(`undefined variable: ${operand.name}`);
        return this.walk(frame.get(operand.name), operand.path);
      }
      case 'pipe':
        return this.walk(this.pipeline(operand.pipeline, scope, false), operand.path);
    }
  }

  /**
   * `.a.b` as Go reads it from maps: a missing key is NO_VALUE (printed `<no value>`), and reading a field of nothing
   * is an error, as text/template reports a nil pointer.
   */
  private walk(start: unknown, path: readonly string[]): unknown {
    let value = start;
    for (const key of path) {
      this.step();
      if (isPlainMap(value)) value = Object.hasOwn(value, key) ? value[key] : NO_VALUE;
      else if (value === null || value === undefined || value === NO_VALUE) throw new GoTemplateError(`nil pointer evaluating interface {}.${key}`);
      else throw new GoTemplateError(`can't evaluate field ${key} in type ${Array.isArray(value) ? 'list' : typeof value}`);
    }
    return value;
  }
}

function describe(operand: Operand): string {
  switch (operand.kind) {
    case 'field':
      return `.${operand.path.join('.')}`;
    case 'variable':
      return [operand.name, ...operand.path].join('.');
    case 'literal':
      return JSON.stringify(operand.value) ?? 'value';
    default:
      return operand.kind;
  }
}

/** Runs a parsed template over `data` (the dot and `$`); throws GoTemplateError for what Go would fail on. */
export function executeGoTemplate(template: GoTemplate, data: unknown, options: GoExecuteOptions): string {
  const out: string[] = [];
  new Evaluator(options, data).run(template.nodes, { dot: data, variables: [new Map()] }, out);
  return out.join('');
}
