import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useDebouncedSave } from './use-debounced-save';

describe('useDebouncedSave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves only the last value, once the delay has passed without another change', () => {
    const save = vi.fn();
    const { result } = renderHook(() => useDebouncedSave(save, 200));
    act(() => result.current.schedule('likely'));
    act(() => vi.advanceTimersByTime(150));
    act(() => result.current.schedule('proven'));
    act(() => vi.advanceTimersByTime(199));
    expect(save).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(save).toHaveBeenCalledExactlyOnceWith('proven');
  });

  it('sends a pending value at once when flushed or when the component goes away', () => {
    const save = vi.fn();
    const { result, unmount } = renderHook(() => useDebouncedSave(save, 1000));
    act(() => result.current.schedule('first'));
    act(() => result.current.flush());
    expect(save).toHaveBeenLastCalledWith('first');
    act(() => result.current.schedule('second'));
    unmount();
    expect(save).toHaveBeenLastCalledWith('second');
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('drops a pending value when cancelled, so nothing is sent then or later', () => {
    const save = vi.fn();
    const { result, unmount } = renderHook(() => useDebouncedSave(save, 500));
    act(() => result.current.schedule('C'));
    act(() => result.current.cancel());
    act(() => vi.advanceTimersByTime(1000));
    act(() => result.current.flush());
    unmount();
    expect(save).not.toHaveBeenCalled();
  });
});
