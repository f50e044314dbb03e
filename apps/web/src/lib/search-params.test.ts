import { describe, expect, it } from 'vitest';
import { withParams } from './search-params';

describe('withParams', () => {
  it('sets the given parameters, removes those given as null and keeps the others', () => {
    const next = withParams(new URLSearchParams('page=3&q=db&sort=name'), { page: null, q: 'api', order: 'desc' });
    expect(next.toString()).toBe('q=api&sort=name&order=desc');
  });

  it('leaves the previous query untouched', () => {
    const previous = new URLSearchParams('page=2');
    withParams(previous, { page: null });
    expect(previous.get('page')).toBe('2');
  });
});
