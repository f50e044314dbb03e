import { describe, expect, it } from 'vitest';
import { hasControlCharacter, normalizeSearchText, searchPatterns } from './search-text';

describe('search text', () => {
  it('trims, collapses white space and lower-cases', () => {
    expect(normalizeSearchText('  Checkout   API ')).toBe('checkout api');
  });

  it('escapes LIKE wildcards so a percent sign or underscore matches only itself', () => {
    const patterns = searchPatterns('50%_off\\');
    expect(patterns.prefix).toBe('50\\%\\_off\\\\%');
    expect(patterns.contains).toBe('%50\\%\\_off\\\\%');
  });

  it('escapes regular expression metacharacters in the word-prefix pattern', () => {
    expect(searchPatterns('a.b(c)*').wordPrefix).toBe('(^|[^[:alnum:]])a\\.b\\(c\\)\\*');
  });

  it('finds control characters but not ordinary punctuation or tabs', () => {
    expect(hasControlCharacter('a\u0000b')).toBe(true);
    expect(hasControlCharacter('a\u001bb')).toBe(true);
    expect(hasControlCharacter("x'; drop table checks; --\t")).toBe(false);
  });
});
