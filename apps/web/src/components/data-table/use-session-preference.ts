import { useCallback, useRef, useState } from 'react';

const PREFIX = 'opsdeck.table.';

export function readSessionPreference<T>(key: string, fallback: T): T {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export type PreferenceUpdate<T> = T | ((previous: T) => T);

/**
 * A value kept in sessionStorage under a per-table key, so a table comes back as it was left (scroll position,
 * expanded rows, column sizes) for the rest of the browser session.
 */
export function useSessionPreference<T>(key: string | undefined, fallback: T): [T, (update: PreferenceUpdate<T>) => void] {
  const [value, setValue] = useState<T>(() => (key ? readSessionPreference(key, fallback) : fallback));
  // The latest value, so the write to storage happens here and not inside a state updater React may replay.
  const latest = useRef(value);
  const update = useCallback(
    (next: PreferenceUpdate<T>) => {
      const resolved = typeof next === 'function' ? (next as (previous: T) => T)(latest.current) : next;
      latest.current = resolved;
      if (key) sessionStorage.setItem(PREFIX + key, JSON.stringify(resolved));
      setValue(resolved);
    },
    [key],
  );
  return [value, update];
}
