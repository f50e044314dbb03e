import { describe, expect, it } from 'vitest';
import { splitMatches } from './highlight-matches';

describe('splitMatches', () => {
  it('cuts the text at every occurrence of the search, ignoring case, and keeps the text as it was written', () => {
    expect(splitMatches('Timeout calling payments: timeout after 5s', 'TIMEOUT')).toEqual([
      { text: 'Timeout', match: true },
      { text: ' calling payments: ', match: false },
      { text: 'timeout', match: true },
      { text: ' after 5s', match: false },
    ]);
  });

  it('takes the search literally, regular-expression characters included', () => {
    expect(splitMatches('GET /a.b?(x) and /axb', 'a.b?(x)')).toEqual([
      { text: 'GET /', match: false },
      { text: 'a.b?(x)', match: true },
      { text: ' and /axb', match: false },
    ]);
  });

  it('trims the search as the logs call does, and leaves the text whole when there is nothing to mark', () => {
    expect(splitMatches('disk full', '  full ')).toEqual([
      { text: 'disk ', match: false },
      { text: 'full', match: true },
    ]);
    expect(splitMatches('disk full', '')).toEqual([{ text: 'disk full', match: false }]);
    expect(splitMatches('disk full', 'cpu')).toEqual([{ text: 'disk full', match: false }]);
  });

  it('keeps markup in a message as text to be shown, never to be read', () => {
    const parts = splitMatches('<img src=x onerror=alert(1)> error', 'error');
    expect(parts.map((part) => part.text).join('')).toBe('<img src=x onerror=alert(1)> error');
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual(['error', 'error']);
  });
});
