import { describe, expect, it } from 'vitest';
import { SqlParams } from './sql-params';

describe('SqlParams', () => {
  it('numbers placeholders from $1 in the order values are added', () => {
    const params = new SqlParams();
    expect([params.add('a'), params.add(2), params.add(null)]).toEqual(['$1', '$2', '$3']);
  });

  it('keeps the values in placeholder order, arrays and objects as they were given', () => {
    const params = new SqlParams();
    const list = ['x', 'y'];
    const object = { key: 'value' };
    params.add(list);
    params.add(object, 'jsonb');
    params.add(undefined);
    expect(params.values).toEqual([list, object, undefined]);
    expect(params.values[0]).toBe(list);
    expect(params.values[1]).toBe(object);
  });

  it('casts a placeholder to the type given, arrays and two-word types included, numbering on from the plain ones', () => {
    const params = new SqlParams();
    expect(params.add('2026-01-01T00:00:00.000Z', 'timestamptz')).toBe('$1::timestamptz');
    expect(params.add(['a'])).toBe('$2');
    expect(params.add([1, 2], 'uuid[]')).toBe('$3::uuid[]');
    expect(params.add(1.5, 'double precision')).toBe('$4::double precision');
  });

  it('refuses a cast that is not a plain type name, and binds nothing then', () => {
    const params = new SqlParams();
    for (const cast of ['', 'text; drop table checks', 'text)', "text' or '1", 'Text', ' text']) {
      expect(() => params.add('v', cast)).toThrow(/not a type name/);
    }
    expect(params.values).toEqual([]);
    expect(params.add('v')).toBe('$1');
  });
});
