import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export type SearchUpdate = (entries: Record<string, string | null>) => void;

/**
 * The query string and a writer for it that drops parameters set to null or '' and replaces the history entry, so
 * a filter or page change is shareable without filling the Back button.
 */
export function useSearchUpdate(): [URLSearchParams, SearchUpdate] {
  const [search, setSearch] = useSearchParams();
  const update = useCallback<SearchUpdate>(
    (entries) =>
      setSearch(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(entries)) {
            if (value === null || value === '') next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return [search, update];
}
