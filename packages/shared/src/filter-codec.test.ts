import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeTristate,
  encodeTristate,
  escapeFilterValue,
  queryFilterToTristate,
  toggleTristate,
  tristateToQueryFilter,
  unescapeFilterValue,
  type TristateValue,
} from './filter-codec';

const activeState = fc.constantFrom<TristateValue>(-1, 1);
const awkwardString = fc.string({ unit: fc.constantFrom('a', 'b', ':', ',', '\\', '!', ' ', 'é') });
const anyValue = fc.oneof(fc.string(), awkwardString);
const selection = fc.dictionary(anyValue, activeState);

describe('filter codec', () => {
  it('writes included and excluded values as value:state pairs', () => {
    expect(encodeTristate({ nginx: 1, redis: -1 })).toBe('nginx:1,redis:-1');
  });

  it('leaves values in the no-filter state out', () => {
    expect(encodeTristate({ nginx: 0, redis: 1 })).toBe('redis:1');
  });

  it('escapes colons, commas and backslashes inside values with a backslash', () => {
    expect(escapeFilterValue('a:b,c\\d')).toBe('a\\:b\\,c\\\\d');
    expect(encodeTristate({ 'app=web,api:v1': 1 })).toBe('app=web\\,api\\:v1:1');
  });

  it('reads escaped values back', () => {
    expect(decodeTristate('app=web\\,api\\:v1:1,db:-1')).toEqual({ 'app=web,api:v1': 1, db: -1 });
  });

  it('ignores malformed pairs and unknown states', () => {
    expect(decodeTristate('a:1,b,c:2,d:0,e:,f:-1')).toEqual({ a: 1, f: -1 });
    expect(decodeTristate('')).toEqual({});
    expect(decodeTristate(null)).toEqual({});
  });

  it('writes exclusions with a ! prefix in the query form', () => {
    expect(tristateToQueryFilter({ nginx: 1, redis: -1, mongo: 0 })).toBe('nginx,!redis');
  });

  it('escapes a value that itself starts with ! in the query form', () => {
    expect(tristateToQueryFilter({ '!important': 1 })).toBe('\\!important');
    expect(queryFilterToTristate('\\!important,!x')).toEqual({ '!important': 1, x: -1 });
  });

  it('round-trips any selection through the URL form', () => {
    fc.assert(
      fc.property(selection, (value) => {
        expect(decodeTristate(encodeTristate(value))).toEqual(value);
      }),
    );
  });

  it('round-trips any selection of non-empty values through the query form', () => {
    const nonEmpty = fc.dictionary(anyValue.filter((text) => text !== ''), activeState);
    fc.assert(
      fc.property(nonEmpty, (value) => {
        expect(queryFilterToTristate(tristateToQueryFilter(value))).toEqual(value);
      }),
    );
  });

  it('unescapes whatever it escapes', () => {
    fc.assert(fc.property(anyValue, (value) => unescapeFilterValue(escapeFilterValue(value)) === value));
  });

  it('resets the state when the active state is clicked again', () => {
    expect(toggleTristate(1, 1)).toBe(0);
    expect(toggleTristate(-1, -1)).toBe(0);
    expect(toggleTristate(0, 1)).toBe(1);
    expect(toggleTristate(1, -1)).toBe(-1);
  });
});
