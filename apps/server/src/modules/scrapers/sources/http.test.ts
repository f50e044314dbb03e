import { describe, expect, it } from 'vitest';
import { headersOf } from './http';

describe('http source headers', () => {
  it('accepts the [{name, value}] list and a plain map, with names lower-cased', () => {
    expect(headersOf([{ name: 'X-Api-Key', value: 'k1' }, { name: 'Accept', value: 'application/json' }])).toEqual({
      'x-api-key': 'k1',
      accept: 'application/json',
    });
    expect(headersOf({ 'X-Team': 'ops', 'X-Retries': 3 })).toEqual({ 'x-team': 'ops', 'x-retries': '3' });
    expect(headersOf(undefined)).toEqual({});
  });

  it('refuses a valueFrom reference it cannot resolve and an entry without a value', () => {
    expect(() => headersOf([{ name: 'Authorization', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }])).toThrow(/valueFrom/);
    expect(() => headersOf([{ name: 'X-Empty' }])).toThrow(/no value/);
  });
});
