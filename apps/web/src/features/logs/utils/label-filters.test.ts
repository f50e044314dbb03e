import { describe, expect, it } from 'vitest';
import type { LogLine } from '@opsdeck/shared';
import { decodeLabelFilters, encodeLabelFilters, filterLinesByLabels } from './label-filters';

const line = (id: string, labels: Record<string, string>): LogLine => ({ id, timestamp: null, message: id, labels });

describe('label filters', () => {
  it('round-trip through the URL form, escaping =, comma and backslash', () => {
    const filters = [
      { key: 'app', value: 'web' },
      { key: 'query', value: 'a=b,c\\d' },
    ];
    const text = encodeLabelFilters(filters);
    expect(text).toBe('app=web,query=a\\=b\\,c\\\\d');
    expect(decodeLabelFilters(text)).toEqual(filters);
  });

  it('skip entries without a key or an =, and repeats, from a hand-edited link', () => {
    expect(decodeLabelFilters('app=web,broken,=x,app=web,a=b=c')).toEqual([
      { key: 'app', value: 'web' },
      { key: 'a', value: 'b=c' },
    ]);
    expect(decodeLabelFilters(null)).toEqual([]);
  });

  it('keep the lines carrying every label with its value, and the same list without filters', () => {
    const lines = [line('a', { app: 'web', pod: '1' }), line('b', { app: 'web', pod: '2' }), line('c', { app: 'db' })];
    expect(filterLinesByLabels(lines, [{ key: 'app', value: 'web' }]).map((kept) => kept.id)).toEqual(['a', 'b']);
    expect(filterLinesByLabels(lines, [{ key: 'app', value: 'web' }, { key: 'pod', value: '2' }]).map((kept) => kept.id)).toEqual(['b']);
    expect(filterLinesByLabels(lines, [{ key: 'constructor', value: 'x' }])).toEqual([]);
    expect(filterLinesByLabels(lines, [])).toBe(lines);
  });
});
