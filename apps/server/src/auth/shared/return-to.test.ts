import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KratosError } from './kratos-error';
import { parseReturnTo, returnLocation } from './return-to';

const ORIGIN = 'http://console.example:8080';

function outcome(raw: string): string {
  try {
    return parseReturnTo(raw, ORIGIN) ?? '(none)';
  } catch (error) {
    if (error instanceof KratosError) return `refused:${error.id ?? ''}`;
    throw error;
  }
}

/** What a browser does with a Location header sent from the console: the origin it would navigate to. */
function browserOrigin(location: string): string {
  return new URL(location, `${ORIGIN}/api/auth/self-service/login`).origin;
}

const REFUSED = 'refused:self_service_flow_return_to_forbidden';

describe('parseReturnTo', () => {
  it('keeps an ordinary path with its query and fragment', () => {
    expect(outcome('/incidents/42?tab=evidence#top')).toBe('/incidents/42?tab=evidence#top');
    expect(outcome('/')).toBe('/');
  });

  it('reduces an absolute URL on the console origin to its path, whatever the case of the scheme and host', () => {
    expect(outcome(`${ORIGIN}/health?tab=1`)).toBe('/health?tab=1');
    expect(outcome('HTTP://CONSOLE.EXAMPLE:8080/health')).toBe('/health');
  });

  it('answers nothing for a missing or empty value', () => {
    expect(parseReturnTo(undefined, ORIGIN)).toBeUndefined();
    expect(parseReturnTo('', ORIGIN)).toBeUndefined();
  });

  const attacks = [
    '/.//evil.com',
    '/..//evil.com',
    '/%2e//evil.com',
    '/%2E%2E//evil.com',
    '/a/..//evil.com',
    `${ORIGIN}//evil.com`,
    `${ORIGIN}/.//evil.com`,
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'https://evil.example/path',
    'HTTPS://EVIL.EXAMPLE',
    'http://console.example:8081/',
    'https://console.example:8080/',
    '/\\evil.example',
    '\\\\evil.example',
    '/%5cevil.example',
    '/%5Cevil.example',
    '/%2f%2fevil.example',
    '/%2F/evil.example',
    '/%252f%252fevil.example',
    '/%25252f%25252fevil.example',
    '/a/%2e%2e%2f%2fevil.example',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/\u0000/evil.example',
    'http://console.example:8080@evil.example',
    'http://user:pass@console.example:8080/',
    'http://evil.example#@console.example:8080',
    'http://evil.example?@console.example:8080/',
    'http:evil.example',
    'http:/evil.example',
    'evil.example',
    'mailto:someone@evil.example',
  ];

  it.each(attacks)('refuses %j or reduces it to a single-slash path on the console', (raw) => {
    const result = outcome(raw);
    if (result === REFUSED) return;
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    expect(browserOrigin(result)).toBe(ORIGIN);
  });

  it('refuses the four forms that used to answer Location: //evil.com', () => {
    for (const raw of ['/.//evil.com', '/..//evil.com', '/%2e//evil.com', `${ORIGIN}//evil.com`]) {
      expect(outcome(raw), raw).toBe(REFUSED);
    }
  });

  it('collapses doubled slashes inside a path on the console', () => {
    expect(outcome('/catalog//items///42')).toBe('/catalog/items/42');
  });

  it('never returns a value a browser would resolve to another origin, for any mix of tricky pieces', () => {
    const pieces = [
      '/', '//', '\\', '.', '..', '%2e', '%2E', '%2f', '%2F', '%5c', '%25', '%252f', 'evil.example', '@', ':', '#', '?',
      '\t', '\n', ' ', 'http:', 'https:', 'HTTP://', ORIGIN, 'console.example', 'a', 'javascript:',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }), (parts) => {
        const result = outcome(parts.join(''));
        if (result === REFUSED || result === '(none)') return;
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(result.includes('\\')).toBe(false);
        expect(browserOrigin(result)).toBe(ORIGIN);
      }),
      { seed: 8, numRuns: 5000 },
    );
  });
});

describe('parseReturnTo with an allow-list of origins', () => {
  const ALLOWED = ['https://allowed.example', 'http://docs.example:8443'];

  function allowOutcome(raw: string): string {
    try {
      return parseReturnTo(raw, ORIGIN, ALLOWED) ?? '(none)';
    } catch (error) {
      if (error instanceof KratosError) return `refused:${error.id ?? ''}`;
      throw error;
    }
  }

  it('keeps an absolute URL on an allowed origin absolute, with its path, query and fragment', () => {
    expect(allowOutcome('https://allowed.example/after?x=1#done')).toBe('https://allowed.example/after?x=1#done');
    expect(allowOutcome('HTTPS://ALLOWED.EXAMPLE')).toBe('https://allowed.example/');
    expect(allowOutcome('http://docs.example:8443/guide')).toBe('http://docs.example:8443/guide');
  });

  it('still reduces the console origin to a path and keeps relative paths', () => {
    expect(allowOutcome(`${ORIGIN}/health`)).toBe('/health');
    expect(allowOutcome('/incidents')).toBe('/incidents');
  });

  it.each([
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    'https:%2F%2Fevil.example',
    'https://allowed.example.evil.test',
    'https://allowed.example.evil.test/after',
    'https://allowed.example@evil.test',
    'https://allowed.example:pw@evil.test/',
    'https://user@allowed.example/',
    'http://allowed.example/',
    'https://allowed.example:444/',
    'https://docs.example:8443/',
    'https://evil.test/?https://allowed.example',
    'https://evil.test#https://allowed.example',
    'https://allowed.example\\@evil.test',
    'https://allowed.example%2F@evil.test',
    'https:allowed.example',
    ' https://allowed.example',
  ])('refuses %j even with allowed origins listed', (raw) => {
    expect(allowOutcome(raw)).toBe(REFUSED);
  });

  it('refuses every origin but the console when no list is given', () => {
    expect(outcome('https://allowed.example/after')).toBe(REFUSED);
  });

  it('never returns a value a browser would send to an origin that is neither the console nor listed', () => {
    const pieces = [
      '/', '//', '\\', '.', '%2f', '%5c', '@', ':', '#', '?', 'https:', 'https://', 'http://', 'allowed.example', '.evil.test',
      'evil.test', ':444', 'docs.example:8443', ORIGIN, 'a', 'javascript:',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }), (parts) => {
        const result = allowOutcome(parts.join(''));
        if (result === REFUSED || result === '(none)') return;
        expect([ORIGIN, ...ALLOWED]).toContain(new URL(result, `${ORIGIN}/api/auth/self-service/login`).origin);
      }),
      { seed: 18, numRuns: 5000 },
    );
  });
});

describe('returnLocation', () => {
  it('falls back when a stored return_to no longer passes the rules', () => {
    expect(returnLocation('//evil.com', ORIGIN, '/')).toBe('/');
    expect(returnLocation('/.//evil.com', ORIGIN, '/')).toBe('/');
    expect(returnLocation(null, ORIGIN, '/login')).toBe('/login');
    expect(returnLocation('/incidents', ORIGIN, '/')).toBe('/incidents');
  });

  it('keeps a stored URL on an allowed origin only while that origin is still listed', () => {
    expect(returnLocation('https://allowed.example/after', ORIGIN, '/', ['https://allowed.example'])).toBe('https://allowed.example/after');
    expect(returnLocation('https://allowed.example/after', ORIGIN, '/', [])).toBe('/');
  });
});
