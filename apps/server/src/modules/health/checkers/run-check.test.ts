import { describe, expect, it } from 'vitest';
import { timeoutOf } from './run-check';

describe('timeoutOf', () => {
  it('reads a bare-number timeout as seconds on dns, postgres and mysql checks, as canary-checker declares them', () => {
    expect(timeoutOf('dns', { timeout: 5 })).toBe(5000);
    expect(timeoutOf('postgres', { timeout: 30 })).toBe(30_000);
    expect(timeoutOf('mysql', { timeout: 2 })).toBe(2000);
  });

  it('reads a bare number as milliseconds on other types, and a written duration the same on every type', () => {
    expect(timeoutOf('http', { timeout: 5000 })).toBe(5000);
    expect(timeoutOf('dns', { timeout: '3s' })).toBe(3000);
    expect(timeoutOf('tcp', { timeout: '3s' })).toBe(3000);
  });
});
