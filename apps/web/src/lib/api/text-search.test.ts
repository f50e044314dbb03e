import { describe, expect, it } from 'vitest';
import { containsPattern, textSearchFilter } from './text-search';

describe('textSearchFilter', () => {
  it('matches any of the columns containing the trimmed text, for postgrest-js or()', () => {
    expect(textSearchFilter(['name', 'email'], '  Ada ')).toBe('name.ilike.*Ada*,email.ilike.*Ada*');
  });

  it('asks for nothing when there is nothing to search for', () => {
    expect(textSearchFilter(['name', 'email'], '   ')).toBeNull();
    expect(textSearchFilter([], 'Ada')).toBeNull();
  });

  it('keeps commas, parentheses, brackets, braces, quotes and stars from changing the filter', () => {
    const filter = textSearchFilter(['name'], 'x),id.not.is.null,or(a*"[{}]"');
    expect(filter).toBe('name.ilike.*x__id.not.is.null_or_a_______*');
    expect(filter?.replace(/^name\.ilike\./, '')).not.toMatch(/[,()[\]{}"]/);
  });

  it('escapes the LIKE wildcards and the backslash, so 100% finds 100% only', () => {
    expect(containsPattern('100%')).toBe('*100\\%*');
    expect(containsPattern('a_b\\c')).toBe('*a\\_b\\\\c*');
  });

  it('searches for 200 characters at most', () => {
    expect(textSearchFilter(['name'], 'x'.repeat(500))).toBe(`name.ilike.*${'x'.repeat(200)}*`);
  });
});
