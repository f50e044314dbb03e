import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStateWithLatest } from './use-state-with-latest';

describe('useStateWithLatest', () => {
  it('reads a value set a moment ago before React renders it, where a handler of the previous render would see the old one', () => {
    const { result } = renderHook(() => useStateWithLatest(() => 'before'));
    const [, set, read] = result.current;
    let seen = '';
    act(() => {
      set('after');
      seen = read();
    });
    expect(seen).toBe('after');
    expect(result.current[0]).toBe('after');
  });

  it('starts from the initial value', () => {
    const { result } = renderHook(() => useStateWithLatest(() => 42));
    expect(result.current[0]).toBe(42);
    expect(result.current[2]()).toBe(42);
  });
});
