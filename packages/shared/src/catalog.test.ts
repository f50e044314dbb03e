import { describe, expect, it } from 'vitest';
import { catalogChangesRequestSchema, catalogSummaryRequestSchema, isInstantOrDateMath, parseGroupKey, parseMatchList, parseTagSelector } from './catalog';

describe('parseTagSelector', () => {
  it('reads equality, inequality and set requirements, commas inside a set belonging to it', () => {
    expect(parseTagSelector('cluster=prod, namespace != kube-system,env in (a, b),team notin (x)')).toEqual([
      { key: 'cluster', op: '=', value: 'prod' },
      { key: 'namespace', op: '!=', value: 'kube-system' },
      { key: 'env', op: 'in', values: ['a', 'b'] },
      { key: 'team', op: 'notin', values: ['x'] },
    ]);
    expect(parseTagSelector('app.kubernetes.io/name==web')).toEqual([{ key: 'app.kubernetes.io/name', op: '=', value: 'web' }]);
    expect(parseTagSelector('')).toEqual([]);
  });

  it('refuses a bare key, unbalanced or nested parentheses and keys with spaces or quotes', () => {
    for (const text of ['cluster', 'env in (a', 'env in ((a))', 'env in a)', "clu ster=prod", "k='v'", 'k=v,', 'env in (a b)']) {
      expect(parseTagSelector(text), text).toBeNull();
    }
  });
});

describe('parseMatchList', () => {
  it('splits a comma list into included values and the ones a ! excludes, dropping empty parts', () => {
    expect(parseMatchList('diff, !Pulled,,!,BackOff')).toEqual({ include: ['diff', 'BackOff'], exclude: ['Pulled'] });
  });
});

describe('parseGroupKey', () => {
  it('knows the fixed columns and the tag and label suffixes and nothing else', () => {
    expect(parseGroupKey('type')).toEqual({ kind: 'column', column: 'type' });
    expect(parseGroupKey('cluster__tag')).toEqual({ kind: 'tag', key: 'cluster' });
    expect(parseGroupKey('app__label')).toEqual({ kind: 'label', key: 'app' });
    expect(parseGroupKey('__tag')).toBeNull();
    expect(parseGroupKey('name')).toBeNull();
  });
});

describe('catalog request schemas', () => {
  it('fill the defaults of spec 002 §2.1 and §9', () => {
    expect(catalogSummaryRequestSchema.parse({})).toMatchObject({ groupBy: ['config_class', 'type'], deleted: false, changes: { since: '30d' }, sortOrder: 'asc' });
    expect(catalogChangesRequestSchema.parse({})).toMatchObject({ page: 1, page_size: 200, depth: 5, from: 'now-2d', to: 'now', sort_by: '-created_at', type_filter: 'all' });
  });

  it('accept ISO times and date expressions as instants, nothing else', () => {
    expect(isInstantOrDateMath('now-2d')).toBe(true);
    expect(isInstantOrDateMath('2026-11-01T10:00:00Z')).toBe(true);
    expect(isInstantOrDateMath('yesterday')).toBe(false);
    expect(isInstantOrDateMath('2026-13-45')).toBe(false);
  });
});
