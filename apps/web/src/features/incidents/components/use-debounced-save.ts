import { useCallback, useEffect, useRef } from 'react';

export interface DebouncedSave<T> {
  /** Saves `value` once `delayMs` pass without another call; a newer value replaces an older pending one. */
  schedule: (value: T) => void;
  /** Sends a pending value now. */
  flush: () => void;
  /** Drops a pending value unsent. */
  cancel: () => void;
}

/** Edits that save themselves after a pause. A value still pending when the component goes away is sent then. */
export function useDebouncedSave<T>(save: (value: T) => void, delayMs: number): DebouncedSave<T> {
  const saveRef = useRef(save);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<{ value: T } | null>(null);

  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const waiting = pending.current;
    pending.current = null;
    if (waiting) saveRef.current(waiting.value);
  }, []);

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = null;
  }, []);

  const schedule = useCallback(
    (value: T) => {
      pending.current = { value };
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, delayMs);
    },
    [delayMs, flush],
  );

  useEffect(() => flush, [flush]);

  return { schedule, flush, cancel };
}
