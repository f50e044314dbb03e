import { apiErrors } from '../api-errors';
import { LIMITS } from '../limits';
import { checkIdentifier, parseField, splitTopLevel, unquoteIdentifier, type Field } from './filter-grammar';

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

export interface OrderTerm {
  field: Field;
  /** Set for a related order, `order=team(name).asc`: the embedded resource whose column orders the rows. */
  relation: string | null;
  descending: boolean;
  nulls: 'first' | 'last' | null;
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
