/**
 * CEL's `has(e.f)` takes any expression `e`; cel-go (Mission Control) accepts `has(patch.status.containerStatuses[0].restartCount)`
 * and config-db's fixtures write it. cel-js takes only a chain of names (`has(a.b.c)`) and refuses the rest at parse.
 * Such a `has` is rewritten to the optional field test CEL gives for the same question, `(e).?f.hasValue()`: true when
 * `e` has the field, false when it lacks it, an error when `e` itself cannot be read, as cel-go answers. A `has` over
 * a chain of names is left for cel-js, which already answers it.
 */

const NAME_CHAIN = /^[A-Za-z_]\w*(?:\s*\.\??\s*[A-Za-z_]\w*)*$/;
const LAST_FIELD = /^([\s\S]*\S)\s*\.\s*([A-Za-z_]\w*)$/;

/** The index just past the string literal that opens at `start` (quotes, triple quotes, escapes; raw or not). */
function skipString(text: string, start: number): number {
  const raw = start > 0 && /[rR]/.test(text[start - 1] ?? '') && !/\w/.test(text[start - 2] ?? '');
  const quote = text[start] ?? '';
  const triple = text.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  while (i < text.length) {
    if (!raw && text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text.startsWith(close, i)) return i + close.length;
    // A single-quoted literal ends at the line; an unclosed one is left for the parser to report.
    if (!triple && text[i] === '\n') return i;
    i += 1;
  }
  return text.length;
}

/** The index of the `)` that closes the `(` at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const char = text[i];
    if (char === '"' || char === "'") {
      i = skipString(text, i);
      continue;
    }
    if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
    i += 1;
  }
  return -1;
}

/** The index just past the bracket group that opens at `open` (`(` or `[`), or -1. */
function closingBracket(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']' };
  const stack: string[] = [];
  let i = open;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (char === '"' || char === "'") {
      i = skipString(text, i);
      continue;
    }
    const closer = pairs[char];
    if (closer !== undefined) stack.push(closer);
    else if (char === ')' || char === ']') {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return i + 1;
    }
    i += 1;
  }
  return -1;
}

/**
 * Whether `operand` is one postfix chain (a name or a parenthesised expression, then fields, `.?` fields, indexes and
 * calls): the only operand a field selection can have, so `has(a + b.c)` stays for the parser to refuse as cel-go does.
 */
function isPostfixChain(operand: string): boolean {
  let i = 0;
  const name = /^[A-Za-z_]\w*/;
  const head = name.exec(operand);
  if (head !== null) i = head[0].length;
  else if (operand[0] === '(') i = closingBracket(operand, 0);
  else return false;
  while (i > 0 && i < operand.length) {
    const rest = operand.slice(i);
    const space = /^\s*/.exec(rest)?.[0].length ?? 0;
    const after = rest.slice(space);
    const field = /^\.\??\s*[A-Za-z_]\w*/.exec(after);
    if (field !== null) i += space + field[0].length;
    else if (after[0] === '[' || after[0] === '(') {
      const end = closingBracket(operand, i + space);
      if (end === -1) return false;
      i = end;
    } else return false;
  }
  return i === operand.length;
}

/** The expression with every `has(e.f)` whose `e` is not a chain of names written as `(e).?f.hasValue()`. */
export function widenHas(expression: string): string {
  if (!expression.includes('has')) return expression;
  let out = '';
  let i = 0;
  while (i < expression.length) {
    const char = expression[i] ?? '';
    if (char === '"' || char === "'") {
      const end = skipString(expression, i);
      out += expression.slice(i, end);
      i = end;
      continue;
    }
    const call = /^has\s*\(/.exec(expression.slice(i, i + 16));
    const boundary = !/[\w.]/.test(expression[i - 1] ?? '');
    if (call === null || !boundary) {
      out += char;
      i += 1;
      continue;
    }
    const open = i + call[0].length - 1;
    const close = closingParen(expression, open);
    if (close === -1) {
      out += expression.slice(i);
      break;
    }
    const inner = widenHas(expression.slice(open + 1, close));
    const field = LAST_FIELD.exec(inner.trim());
    const operand = field?.[1];
    if (field === null || operand === undefined || NAME_CHAIN.test(operand) || !isPostfixChain(operand)) out += `has(${inner})`;
    else out += `(${operand}).?${field[2] ?? ''}.hasValue()`;
    i = close + 1;
  }
  return out;
}
