import { describe, expect, it } from 'vitest';
import { nameMatcher } from './kubernetes-checker';

describe('kubernetes check name selectors', () => {
  it('match names and globs from a comma list, and leave out every name an exclusion matches', () => {
    const matches = nameMatcher('kube-*,!*lease, default');
    expect(['kube-system', 'kube-public', 'default'].filter(matches)).toEqual(['kube-system', 'kube-public', 'default']);
    expect(matches('kube-node-lease')).toBe(false);
    expect(matches('shop')).toBe(false);
  });

  it('match every name when empty or when only exclusions are given', () => {
    expect(nameMatcher(undefined)('anything')).toBe(true);
    expect(nameMatcher('!db-*')('web-1')).toBe(true);
    expect(nameMatcher('!db-*')('db-0')).toBe(false);
  });

  it('read regular-expression characters in a name literally', () => {
    expect(nameMatcher('web.1')('webx1')).toBe(false);
    expect(nameMatcher('web.1')('web.1')).toBe(true);
  });
});
