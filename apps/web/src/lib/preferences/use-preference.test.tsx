import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { usePreference, writePreference } from './use-preference';

describe('usePreference', () => {
  it('returns the default until a value is stored', () => {
    const { result } = renderHook(() => usePreference('colour', 'blue'));
    expect(result.current[0]).toBe('blue');
    act(() => result.current[1]('red'));
    expect(result.current[0]).toBe('red');
    expect(localStorage.getItem('colour')).toBe('red');
  });

  it('keeps every user of the key in step within the tab', () => {
    const first = renderHook(() => usePreference('colour', 'blue'));
    const second = renderHook(() => usePreference('colour', 'blue'));
    act(() => first.result.current[1]('green'));
    expect(second.result.current[0]).toBe('green');
    act(() => first.result.current[1](null));
    expect(second.result.current[0]).toBe('blue');
  });

  it('follows changes made in another tab through the storage event', () => {
    const { result } = renderHook(() => usePreference('colour', 'blue'));
    act(() => {
      localStorage.setItem('colour', 'purple');
      window.dispatchEvent(new StorageEvent('storage', { key: 'colour', newValue: 'purple' }));
    });
    expect(result.current[0]).toBe('purple');
    act(() => writePreference('other', 'x'));
    expect(result.current[0]).toBe('purple');
  });
});
