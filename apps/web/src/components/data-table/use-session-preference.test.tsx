import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useSessionPreference } from './use-session-preference';

describe('useSessionPreference', () => {
  it('stores values per key in sessionStorage and reads them back', () => {
    const first = renderHook(() => useSessionPreference('grid.a', { top: 0 }));
    act(() => first.result.current[1]({ top: 40 }));
    expect(first.result.current[0]).toEqual({ top: 40 });
    const again = renderHook(() => useSessionPreference('grid.a', { top: 0 }));
    expect(again.result.current[0]).toEqual({ top: 40 });
    const other = renderHook(() => useSessionPreference('grid.b', { top: 0 }));
    expect(other.result.current[0]).toEqual({ top: 0 });
  });

  it('accepts updater functions and keeps nothing without a key', () => {
    const { result } = renderHook(() => useSessionPreference<number>(undefined, 1));
    act(() => result.current[1]((previous) => previous + 1));
    expect(result.current[0]).toBe(2);
    expect(sessionStorage.length).toBe(0);
  });
});
