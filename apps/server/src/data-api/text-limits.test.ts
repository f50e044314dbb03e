import { describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '@opsdeck/shared';
import { errorCodeOf } from './error-code-of';
import type { Column, DbFunction, Relation } from './schema-cache';
import { refuseOverlongArguments, refuseOverlongText, textLimitOf } from './text-limits';

describe('textLimitOf', () => {
  it('bounds an indexed text column, and any name, title or namespace, at the short limit', () => {
    expect(textLimitOf('fingerprint', 'text', true)).toBe(TEXT_LIMITS.short);
    expect(textLimitOf('title', 'text', false)).toBe(TEXT_LIMITS.short);
    expect(textLimitOf('namespace', 'text', false)).toBe(TEXT_LIMITS.short);
  });

  it('bounds other text, citext and each element of a text array at the long limit', () => {
    expect(textLimitOf('description', 'text', false)).toBe(TEXT_LIMITS.long);
    expect(textLimitOf('notes', 'citext', false)).toBe(TEXT_LIMITS.long);
    expect(textLimitOf('events', 'text[]', false)).toBe(TEXT_LIMITS.long);
  });

  it('keeps a declared varchar length when it is the tighter bound', () => {
    expect(textLimitOf('code', 'character varying(12)', true)).toBe(12);
    expect(textLimitOf('name', 'character varying(4000)', false)).toBe(TEXT_LIMITS.short);
  });

  it('gives no limit to columns that hold no text', () => {
    for (const type of ['uuid', 'jsonb', 'integer', 'timestamp with time zone', 'boolean']) expect(textLimitOf('name', type, true)).toBeNull();
  });
});

function column(name: string, type: string, maxLength: number | null): Column {
  return { name, type, notNull: false, hasDefault: false, maxLength };
}

const incidents: Relation = {
  name: 'incidents',
  kind: 'table',
  columns: new Map([
    ['title', column('title', 'text', 256)],
    ['tags', column('tags', 'text[]', 10)],
    ['count', column('count', 'integer', null)],
  ]),
  primaryKey: [],
  uniqueKeys: [],
  writable: { insert: true, update: true, delete: true },
  reads: [],
};

describe('refuseOverlongText', () => {
  it('takes a value at its limit, counting a character outside the BMP as one as PostgreSQL does', () => {
    expect(errorCodeOf(() => refuseOverlongText(incidents, [{ title: '\u{1F600}'.repeat(256), tags: ['x'.repeat(10)], count: 1 }]))).toBeNull();
  });

  it('refuses one character over the limit in any row with 400 22001 naming the column, the length and the limit', () => {
    const rows = [{ title: 'ok' }, { title: '\u{1F600}'.repeat(257) }];
    expect(errorCodeOf(() => refuseOverlongText(incidents, rows))).toBe('400 22001');
    expect(() => refuseOverlongText(incidents, rows)).toThrow('incidents.title: 257 characters, at most 256');
  });

  it('bounds each element of a text array, and the number of elements', () => {
    expect(() => refuseOverlongText(incidents, [{ tags: ['a', 'y'.repeat(11)] }])).toThrow('incidents.tags: 11 characters, at most 10');
    expect(() => refuseOverlongText(incidents, [{ tags: Array.from({ length: TEXT_LIMITS.arrayItems + 1 }, () => 'a') }])).toThrow('too many values');
  });

  it('leaves columns without a text limit, and unknown columns, to the later stages', () => {
    expect(errorCodeOf(() => refuseOverlongText(incidents, [{ count: 'x'.repeat(1000), nope: 'x'.repeat(1000) }]))).toBeNull();
  });
});

describe('refuseOverlongArguments', () => {
  const search: DbFunction = { name: 'search_configs', args: [{ name: 'search', type: 'text', optional: false }], returnsSet: true, rowRelation: null, returnsVoid: false, volatile: false };

  it('bounds a function text argument at the long limit', () => {
    expect(errorCodeOf(() => refuseOverlongArguments(search, new Map([['search', 'x'.repeat(TEXT_LIMITS.long)]])))).toBeNull();
    expect(errorCodeOf(() => refuseOverlongArguments(search, new Map([['search', 'x'.repeat(TEXT_LIMITS.long + 1)]])))).toBe('400 22001');
  });
});
