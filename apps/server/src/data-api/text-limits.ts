import { TEXT_LIMITS } from '@opsdeck/shared';
import { AppError } from '../platform/errors';
import type { JsonRecord } from './parse/body';
import type { DbFunction, Relation } from './schema-cache';

/**
 * Text written through the data API is bounded per column from the introspected schema: a column in a btree index,
 * and any name, title or namespace, at TEXT_LIMITS.short; other text at TEXT_LIMITS.long; a declared varchar(n) at
 * n when tighter. docs/text-limits.md (written by `npm run db:types`) lists every column with its limit.
 */
const NAME_LIKE = new Set(['name', 'title', 'namespace']);

const VARCHAR = /^character varying\((\d+)\)(\[\])?$/;

/** The text types whose values are bounded; a `[]` suffix bounds each element. */
function textBase(type: string): { bounded: boolean; declared: number | null } {
  const varchar = VARCHAR.exec(type);
  if (varchar !== null) return { bounded: true, declared: Number(varchar[1]) };
  const base = type.endsWith('[]') ? type.slice(0, -2) : type;
  return { bounded: base === 'text' || base === 'character varying' || base === 'citext', declared: null };
}

/** A column's limit from its introspected type and indexes; null for a column that holds no text. */
export function textLimitOf(name: string, type: string, indexed: boolean): number | null {
  const base = textBase(type);
  if (!base.bounded) return null;
  const rule = indexed || NAME_LIKE.has(name) ? TEXT_LIMITS.short : TEXT_LIMITS.long;
  return base.declared === null ? rule : Math.min(base.declared, rule);
}

/** Characters as PostgreSQL counts them (code points), counted only when the UTF-16 length could be over the limit. */
function characters(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count += 1;
  }
  return count;
}

function overLimit(values: unknown[], limit: number): number | null {
  for (const item of values) {
    if (typeof item !== 'string') continue;
    const length = characters(item, limit);
    if (length > limit) return length;
  }
  return null;
}

function tooLong(relation: string, column: string, length: number, limit: number): AppError {
  return new AppError(
    400,
    '22001',
    `value too long for ${relation}.${column}: ${length} characters, at most ${limit}`,
    JSON.stringify({ relation, column, length, limit }),
    'See docs/text-limits.md for the limit of every column',
  );
}

function tooManyItems(relation: string, column: string, items: number): AppError {
  return new AppError(
    400,
    '22001',
    `too many values for ${relation}.${column}: ${items}, at most ${TEXT_LIMITS.arrayItems}`,
    JSON.stringify({ relation, column, items, limit: TEXT_LIMITS.arrayItems }),
    'See docs/text-limits.md',
  );
}

/**
 * Refuses a write whose text is longer than its column allows, before the database sees it: an index over a long
 * value costs the database time out of proportion to the request, and one that does not fit fails the statement.
 */
export function refuseOverlongText(relation: Relation, rows: JsonRecord[]): void {
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      const column = relation.columns.get(name);
      const limit = column?.maxLength ?? null;
      if (column === undefined || limit === null) continue;
      const values: unknown[] = Array.isArray(value) ? value : [value];
      if (column.type.endsWith('[]') && values.length > TEXT_LIMITS.arrayItems) throw tooManyItems(relation.name, name, values.length);
      const length = overLimit(values, limit);
      if (length !== null) throw tooLong(relation.name, name, length, limit);
    }
  }
}

/** The same bound on a function's text arguments, which reach its SQL the way a written value reaches a column. */
export function refuseOverlongArguments(fn: DbFunction, args: Map<string, unknown>): void {
  for (const arg of fn.args) {
    const limit = textLimitOf(arg.name, arg.type, false);
    const value = args.get(arg.name);
    if (limit === null || value === undefined) continue;
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (arg.type.endsWith('[]') && values.length > TEXT_LIMITS.arrayItems) throw tooManyItems(fn.name, arg.name, values.length);
    const length = overLimit(values, limit);
    if (length !== null) throw tooLong(fn.name, arg.name, length, limit);
  }
}
