/**
 * Reads a view's stored query tree (pg_rewrite.ev_action, PostgreSQL's nodeToString format) far enough to tell which
 * table column each output column passes through unchanged. The parser records that origin on every target entry
 * (resorigtbl, resorigcol) whose expression is a plain column reference, through joins, subqueries and CTEs; anything
 * computed has none. This is how PostgREST infers the relationships of a view from the foreign keys beneath it.
 */

export interface PgNode {
  name: string;
  fields: Map<string, PgValue>;
}

export type PgValue = PgNode | PgValue[] | string | null;

interface Token {
  text: string;
  /** An unescaped `:name` token starts a field; an escaped colon is part of a value. */
  field: boolean;
}

const DELIMITERS = new Set(['(', ')', '{', '}']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === ' ' || char === '\n' || char === '\t' || char === '\r') {
      i += 1;
      continue;
    }
    if (DELIMITERS.has(char)) {
      tokens.push({ text: char, field: false });
      i += 1;
      continue;
    }
    const field = char === ':';
    let value = '';
    while (i < text.length) {
      const next = text.charAt(i);
      if (next === ' ' || next === '\n' || next === '\t' || next === '\r' || DELIMITERS.has(next)) break;
      if (next === '\\' && i + 1 < text.length) {
        value += text.charAt(i + 1);
        i += 2;
        continue;
      }
      value += next;
      i += 1;
    }
    tokens.push({ text: value, field });
  }
  return tokens;
}

class Reader {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private take(): Token {
    const token = this.tokens[this.index];
    if (token === undefined) throw new Error('The query tree ended early');
    this.index += 1;
    return token;
  }

  value(): PgValue {
    const token = this.take();
    if (token.text === '{' && !token.field) return this.node();
    if (token.text === '(' && !token.field) return this.list();
    return token.text === '<>' ? null : token.text;
  }

  private list(): PgValue[] {
    const items: PgValue[] = [];
    for (let next = this.peek(); next !== undefined && next.text !== ')'; next = this.peek()) items.push(this.value());
    this.take();
    return items;
  }

  private node(): PgNode {
    const node: PgNode = { name: this.take().text, fields: new Map() };
    for (let next = this.peek(); next !== undefined && next.text !== '}'; next = this.peek()) {
      const key = this.take();
      if (!key.field) throw new Error(`Expected a field of ${node.name}, found '${key.text}'`);
      node.fields.set(key.text.slice(1), this.value());
      // A few fields (a constant's bytes) span several tokens; only the first is ever read here.
      for (let rest = this.peek(); rest !== undefined && !rest.field && rest.text !== '}'; rest = this.peek()) this.value();
    }
    this.take();
    return node;
  }
}

export function parseNodeTree(text: string): PgValue {
  return new Reader(tokenize(text)).value();
}

function isNode(value: PgValue | undefined, name: string): value is PgNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.name === name;
}

function listOf(value: PgValue | undefined): PgValue[] {
  return Array.isArray(value) ? value : [];
}

function text(node: PgNode, field: string): string | null {
  const value = node.fields.get(field);
  return typeof value === 'string' ? value : null;
}

function integer(node: PgNode, field: string): number {
  return Number(text(node, field) ?? Number.NaN);
}

/** A table (or view) column, by the relation's oid and the column's attnum. */
export interface ColumnOrigin {
  relid: number;
  attnum: number;
}

/** One output column: the columns it passes through, one per branch of a set operation; null when computed. */
export interface OutputColumn {
  name: string;
  origins: ColumnOrigin[] | null;
}

function setOperationLeaves(value: PgValue | undefined): number[] {
  if (isNode(value, 'RANGETBLREF')) return [integer(value, 'rtindex')];
  if (isNode(value, 'SETOPERATIONSTMT')) return [...setOperationLeaves(value.fields.get('larg')), ...setOperationLeaves(value.fields.get('rarg'))];
  return [];
}

function outputColumns(query: PgNode): OutputColumn[] {
  const entries = listOf(query.fields.get('targetList')).filter(
    (entry): entry is PgNode => isNode(entry, 'TARGETENTRY') && text(entry, 'resjunk') !== 'true',
  );
  const names = entries.map((entry) => text(entry, 'resname') ?? '');
  const setOperations = query.fields.get('setOperations');
  if (setOperations === null || setOperations === undefined) {
    return entries.map((entry, index) => {
      const relid = integer(entry, 'resorigtbl');
      const attnum = integer(entry, 'resorigcol');
      const plain = Number.isInteger(relid) && relid > 0 && Number.isInteger(attnum) && attnum > 0;
      return { name: names[index] ?? '', origins: plain ? [{ relid, attnum }] : null };
    });
  }
  // The output of UNION / INTERSECT / EXCEPT carries no origin of its own: each column is the same position of every
  // branch, and it passes a column through only when every branch does.
  const rtable = listOf(query.fields.get('rtable'));
  const branches = setOperationLeaves(setOperations).map((rtindex) => {
    const entry = rtable[rtindex - 1];
    const subquery = isNode(entry, 'RANGETBLENTRY') ? entry.fields.get('subquery') : undefined;
    return isNode(subquery, 'QUERY') ? outputColumns(subquery) : [];
  });
  return names.map((name, index) => {
    const origins: ColumnOrigin[] = [];
    for (const branch of branches) {
      const column = branch[index];
      if (column === undefined || column.origins === null) return { name, origins: null };
      origins.push(...column.origins);
    }
    return { name, origins: origins.length === 0 ? null : origins };
  });
}

/** The output columns of a view from its `_RETURN` rule's action; empty when the tree is not one this reader knows. */
export function viewOutputColumns(action: string): OutputColumn[] {
  try {
    const [query] = listOf(parseNodeTree(action));
    return isNode(query, 'QUERY') ? outputColumns(query) : [];
  } catch {
    return [];
  }
}
