import { useCallback, useRef, useState } from 'react';

/**
 * State with a reader of its newest value. An editor's text changes outside React's events (CodeMirror reports them
 * from a DOM observer), and a Save pressed before React renders that change ran the submit handler of the previous
 * render, which sent the text from before the edit; handlers read the newest value instead.
 */
export function useStateWithLatest<T>(initial: () => T): [T, (next: T) => void, () => T] {
  const [value, setValue] = useState(initial);
  const latest = useRef(value);
  const set = useCallback((next: T) => {
    latest.current = next;
    setValue(next);
  }, []);
  const read = useCallback(() => latest.current, []);
  return [value, set, read];
}
