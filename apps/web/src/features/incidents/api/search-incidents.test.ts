import { describe, expect, it } from 'vitest';
import { incidentSearchFilter, literalPattern } from './search-incidents';

/** PostgreSQL writes a code point beyond the basic plane as \UXXXXXXXX; JavaScript (with the u flag) as \u{…}. */
function asJsRegExp(pattern: string): RegExp {
  return new RegExp(pattern.replace(/\\U([0-9a-f]{8})/g, (_, digits: string) => `\\u{${digits}}`), 'iu');
}

const AWKWARD = ['50%', 'a,b', '(x)', '*', 'say "hi"', "it's", 'C:\\temp', 'under_score', 'a.b', '[x]', 'pipe|or', '😀 down'];

describe('incident text search', () => {
  it('matches awkward text literally, as a substring, ignoring case', () => {
    for (const text of AWKWARD) {
      const pattern = asJsRegExp(literalPattern(text));
      expect(pattern.test(`Incident: ${text.toUpperCase()} happened`), text).toBe(true);
    }
  });

  it('does not let wildcards or regex characters match other text', () => {
    expect(asJsRegExp(literalPattern('50%')).test('500 errors')).toBe(false);
    expect(asJsRegExp(literalPattern('under_score')).test('underXscore')).toBe(false);
    expect(asJsRegExp(literalPattern('*')).test('no star here')).toBe(false);
    expect(asJsRegExp(literalPattern('a.b')).test('axb')).toBe(false);
    expect(asJsRegExp(literalPattern('(x)')).test('x')).toBe(false);
  });

  it('leaves nothing in the filter that the or=(…) grammar reads as a separator, group or quote', () => {
    for (const text of AWKWARD) {
      const filter = incidentSearchFilter(text) ?? '';
      const [title, displayId, ...rest] = filter.split(',');
      expect(rest, text).toEqual([]);
      expect(title, text).toMatch(/^title\.imatch\.[^,()"*%]+$/);
      expect(displayId, text).toBe(`incident_id.imatch.${literalPattern(text)}`);
    }
  });

  it('escapes each character as \\u with four hex digits, so a following digit is not read as part of it', () => {
    expect(literalPattern('50%0')).toBe('50\\u00250');
    expect(literalPattern('a,b')).toBe('a\\u002cb');
    expect(literalPattern('\\')).toBe('\\u005c');
    expect(literalPattern('😀')).toBe('\\U0001f600');
    expect(asJsRegExp(literalPattern('50%0')).test('50%0')).toBe(true);
  });

  it('searches the title and the display id for the trimmed text, and nothing for blank text', () => {
    expect(incidentSearchFilter('  INC-7 ')).toBe('title.imatch.INC-7,incident_id.imatch.INC-7');
    expect(incidentSearchFilter('   ')).toBeNull();
  });
});
