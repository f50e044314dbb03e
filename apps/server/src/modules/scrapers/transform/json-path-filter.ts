/**
 * JSONPath filters (`$.Tags[?(@.Key == "Name")].Value`) with the meaning config-db's JSONPath library (ohler55/ojg)
 * gives them, in the part of its filter language that cannot be misread: comparisons of a path below the current
 * element (`@.a.b`, `@['a b']`, `@.list[0]`) with a literal or another such path, joined by `&&` or `||` and negated
 * with `!( )`. A filter is parsed and walked here; jsonpath-plus hands each filter to `filterEvaluator` (its `eval`
 * callback), so no JavaScript is ever compiled or run from a spec. Anything else (functions, regexes, arithmetic,
 * `@root`, nested filters) is refused at save with the reason.
 */

type Literal = string | number | boolean | null;
type Operand = { path: ReadonlyArray<string | number> } | { literal: Literal };
type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';
type FilterNode =
  | { compare: Comparison; left: Operand; right: Operand }
  | { join: '&&' | '||'; parts: readonly FilterNode[] }
  | { not: FilterNode };

interface Token {
  kind: 'current' | 'name' | 'index' | 'string' | 'number' | 'word' | 'op' | 'punct';
  text: string;
  at: number;
}

class FilterSyntaxError extends Error {}

const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);
/** jsonpath-plus writes the current element as `_$_v` before it calls the evaluator; `@` is what a spec writes. */
const CURRENT = /^(?:@|_\$_v)(?![\w$])/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
/**
 * Quoted text holds none of the characters jsonpath-plus reads inside a filter before it evaluates it (it rewrites
 * `@` and splits paths at brackets and parentheses), and no escapes, so a literal means the same on both sides.
 */
const STRING = /^(?:'[^'@[\]()?\\]*'|"[^"@[\]()?\\]*")/;
const OPERATOR = /^(?:==|!=|<=|>=|&&|\|\||<|>|!)/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space !== null) {
      i += space[0].length;
      continue;
    }
    const current = CURRENT.exec(rest);
    if (current !== null) {
      tokens.push({ kind: 'current', text: current[0], at: i });
      i += current[0].length;
      continue;
    }
    const previous = tokens.at(-1);
    const afterPath = previous !== undefined && (previous.kind === 'current' || previous.kind === 'name' || previous.kind === 'index');
    if (afterPath && rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1));
      if (name === null) throw new FilterSyntaxError(`expects a name after '.' at ${i}`);
      tokens.push({ kind: 'name', text: name[0], at: i });
      i += 1 + name[0].length;
      continue;
    }
    if (afterPath && rest.startsWith('[')) {
      const inner = /^\[\s*(\d+|'[^'@[\]()?\\]*'|"[^"@[\]()?\\]*")\s*\]/.exec(rest);
      if (inner?.[1] === undefined) throw new FilterSyntaxError(`has a '[' at ${i} that is not a quoted name or a whole index`);
      const part = inner[1];
      tokens.push(/^\d/.test(part) ? { kind: 'index', text: part, at: i } : { kind: 'name', text: part.slice(1, -1), at: i });
      i += inner[0].length;
      continue;
    }
    const match = STRING.exec(rest) ?? NUMBER.exec(rest) ?? /^(?:true|false|null)(?![\w$])/.exec(rest) ?? OPERATOR.exec(rest) ?? /^[()]/.exec(rest);
    if (match === null) throw new FilterSyntaxError(`has '${rest.slice(0, 12)}' at ${i}, which is not a path below @, a literal, a comparison, &&, || or !( )`);
    const word = match[0];
    const kind: Token['kind'] = STRING.test(word) ? 'string' : NUMBER.test(word) ? 'number' : /^[a-z]/.test(word) ? 'word' : /^[()]$/.test(word) ? 'punct' : 'op';
    tokens.push({ kind, text: word, at: i });
    i += word.length;
  }
  return tokens;
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): FilterNode {
    const node = this.joined();
    const left = this.tokens[this.position];
    if (left !== undefined) throw new FilterSyntaxError(`has '${left.text}' at ${left.at} after a complete condition`);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private next(): Token {
    const token = this.tokens[this.position];
    if (token === undefined) throw new FilterSyntaxError('ends before the condition is complete');
    this.position += 1;
    return token;
  }

  /**
   * ojg gives `&&` and `||` the same precedence where JavaScript binds `&&` tighter, so a mix of the two without
   * parentheses could mean two things: it is refused rather than guessed.
   */
  private joined(): FilterNode {
    const parts = [this.unary()];
    let join: '&&' | '||' | undefined;
    for (let token = this.peek(); token?.text === '&&' || token?.text === '||'; token = this.peek()) {
      if (join !== undefined && join !== token.text) throw new FilterSyntaxError(`mixes && and || at ${token.at}: group them with parentheses`);
      join = token.text;
      this.position += 1;
      parts.push(this.unary());
    }
    return join === undefined ? (parts[0] as FilterNode) : { join, parts };
  }

  private unary(): FilterNode {
    const token = this.peek();
    if (token?.text === '!') {
      this.position += 1;
      if (this.peek()?.text !== '(') throw new FilterSyntaxError(`has '!' at ${token.at} before something other than '( )'`);
      return { not: this.unary() };
    }
    if (token?.text === '(') {
      this.position += 1;
      const inner = this.joined();
      if (this.next().text !== ')') throw new FilterSyntaxError(`has a '(' at ${token.at} that is never closed`);
      return inner;
    }
    const left = this.operand();
    const operator = this.next();
    if (!COMPARISONS.has(operator.text)) throw new FilterSyntaxError(`expects ==, !=, <, <=, > or >= at ${operator.at}, not '${operator.text}'`);
    return { compare: operator.text as Comparison, left, right: this.operand() };
  }

  private operand(): Operand {
    const token = this.next();
    if (token.kind === 'current') {
      const path: Array<string | number> = [];
      for (let part = this.peek(); part?.kind === 'name' || part?.kind === 'index'; part = this.peek()) {
        path.push(part.kind === 'index' ? Number(part.text) : part.text);
        this.position += 1;
      }
      return { path };
    }
    if (token.kind === 'string') return { literal: token.text.slice(1, -1) };
    if (token.kind === 'number') return { literal: Number(token.text) };
    if (token.kind === 'word') return { literal: token.text === 'null' ? null : token.text === 'true' };
    throw new FilterSyntaxError(`expects a path below @ or a literal at ${token.at}, not '${token.text}'`);
  }
}

const parsed = new Map<string, FilterNode>();

/** The filter's tree; throws a FilterSyntaxError saying what is not understood. */
function parseFilter(source: string): FilterNode {
  let node = parsed.get(source);
  if (node === undefined) {
    node = new Parser(tokenize(source)).parse();
    if (parsed.size < 1000) parsed.set(source, node);
  }
  return node;
}

/** Why the inside of `[?( )]` cannot be evaluated here, or null. */
export function filterProblem(source: string): string | null {
  try {
    parseFilter(source);
    return null;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error.message;
    throw error;
  }
}

/** ojg's missing value: a path that finds nothing compares equal only to another path that finds nothing. */
const MISSING = Symbol('missing');

function valueAt(current: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = current;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(value) || segment >= value.length) return MISSING;
      value = value[segment] as unknown;
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, segment)) return MISSING;
      value = (value as Record<string, unknown>)[segment];
    }
  }
  return value;
}

function isScalar(value: unknown): value is Literal | typeof MISSING {
  return value === null || value === MISSING || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Go compares strings byte by byte in UTF-8, which is code point order; JavaScript's `<` compares UTF-16 units. */
function compareStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * ojg's rules: equality holds between equal scalars of one kind (1 and 1.0 are one number), never between a string and
 * a number; an order holds only between two numbers or two strings, and is false for anything else.
 */
function compare(operator: Comparison, left: unknown, right: unknown): boolean {
  if (operator === '==' || operator === '!=') {
    const equal = isScalar(left) && isScalar(right) && left === right;
    return operator === '==' ? equal : !equal;
  }
  let order: number;
  if (typeof left === 'number' && typeof right === 'number') order = left - right;
  else if (typeof left === 'string' && typeof right === 'string') order = compareStrings(left, right);
  else return false;
  if (operator === '<') return order < 0;
  if (operator === '<=') return order <= 0;
  if (operator === '>') return order > 0;
  return order >= 0;
}

function operandValue(operand: Operand, current: unknown): unknown {
  return 'path' in operand ? valueAt(current, operand.path) : operand.literal;
}

function holds(node: FilterNode, current: unknown): boolean {
  if ('compare' in node) return compare(node.compare, operandValue(node.left, current), operandValue(node.right, current));
  if ('not' in node) return !holds(node.not, current);
  return node.join === '&&' ? node.parts.every((part) => holds(part, current)) : node.parts.some((part) => holds(part, current));
}

/**
 * jsonpath-plus's `eval` callback: the filter text (with `@` written as `_$_v`) and the element it judges, which
 * jsonpath-plus passes as `_$_v` in its context. A script expression (`[( )]`) reaches this callback too, which is why
 * callers check the whole path first (jsonPathProblem) and never send one.
 */
export function filterEvaluator(code: string, context: object): boolean {
  return holds(parseFilter(code), Reflect.get(context, '_$_v'));
}
