import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../error-code-of';
import { checkRequestShape, negotiate, parsePreferences, parseRangeHeader } from './headers';

describe('parsePreferences', () => {
  it('reads every preference from one comma-separated header or from several headers', () => {
    const expected = { return: 'representation', count: 'exact', resolution: 'merge-duplicates', missingDefault: true };
    expect(parsePreferences('return=representation, count=exact,resolution=merge-duplicates , missing=default')).toEqual(expected);
    expect(parsePreferences(['return=representation', 'count=exact', 'resolution=merge-duplicates, missing=default'])).toEqual(expected);
  });

  it('ignores unknown preferences and unknown values, and lets a later value win', () => {
    expect(parsePreferences('tx=rollback, count=everything, return=minimal, return=headers-only, missing=null')).toEqual({
      return: 'headers-only',
      count: null,
      resolution: null,
      missingDefault: false,
    });
  });

  it('prefers nothing without a header', () => {
    expect(parsePreferences(undefined)).toEqual({ return: null, count: null, resolution: null, missingDefault: false });
  });
});

describe('parseRangeHeader', () => {
  it('reads an inclusive window, with or without the items= prefix, and an open end', () => {
    expect(parseRangeHeader('0-9', undefined)).toEqual({ offset: 0, limit: 10 });
    expect(parseRangeHeader('items=5-5', 'items')).toEqual({ offset: 5, limit: 1 });
    expect(parseRangeHeader('10-', undefined)).toEqual({ offset: 10, limit: null });
  });

  it('reads no range from an absent or blank header', () => {
    expect(parseRangeHeader(undefined, 'items')).toBeNull();
    expect(parseRangeHeader('  ', undefined)).toBeNull();
  });

  it('answers 416 PGRST103 for another unit, a malformed range or one that ends before it starts', () => {
    expect(errorCodeOf(() => parseRangeHeader('0-9', 'bytes'))).toBe('416 PGRST103');
    expect(errorCodeOf(() => parseRangeHeader('first-last', undefined))).toBe('416 PGRST103');
    expect(errorCodeOf(() => parseRangeHeader('-5', undefined))).toBe('416 PGRST103');
    expect(errorCodeOf(() => parseRangeHeader('9-3', undefined))).toBe('416 PGRST103');
  });
});

describe('negotiate', () => {
  it('answers an array by default and for JSON or wildcard types', () => {
    expect(negotiate(undefined)).toBe('array');
    expect(negotiate('application/json')).toBe('array');
    expect(negotiate('text/html, */*;q=0.8')).toBe('array');
    expect(negotiate('application/vnd.pgrst.array+json')).toBe('array');
  });

  it('answers one object for the singular media type, whichever accepted type comes first', () => {
    expect(negotiate('application/vnd.pgrst.object+json')).toBe('object');
    expect(negotiate('application/vnd.pgrst.object+json;q=0.9, application/json')).toBe('object');
    expect(negotiate('application/json, application/vnd.pgrst.object+json')).toBe('array');
  });

  it('answers 406 PGRST107 when no accepted type is JSON', () => {
    expect(errorCodeOf(() => negotiate('text/csv'))).toBe('406 PGRST107');
  });
});

describe('checkRequestShape', () => {
  it('refuses a schema other than public and an over-long URI', () => {
    expect(errorCodeOf(() => checkRequestShape('/api/db/t', { 'accept-profile': 'public' }))).toBeNull();
    expect(errorCodeOf(() => checkRequestShape('/api/db/t', { 'content-profile': 'private' }))).toBe('406 PGRST106');
    expect(errorCodeOf(() => checkRequestShape(`/api/db/t?${'a'.repeat(9000)}`, {}))).toBe('414 PGRST100');
  });
});
