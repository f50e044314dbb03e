import { useCallback, useLayoutEffect, useRef } from 'react';
import { useSearchParams, type NavigateOptions } from 'react-router';

/**
 * The address's query, and a function that changes it from the latest query this page asked for. React Router's
 * `setSearchParams(current => …)` hands the function the query of the last render, not the latest one: two changes
 * made before the next render (a tab click, then the list growing as it scrolls into a shorter tab) lost the first,
 * and a callback kept from an older render brought back a query the page had already left.
 */
export function useSearchParamsUpdate(): [URLSearchParams, (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => void] {
  const [search, setSearch] = useSearchParams();
  const latest = useRef(search);
  // Once an address is rendered it is the truth again (the back button, a link).
  useLayoutEffect(() => {
    latest.current = search;
  }, [search]);
  const update = useCallback(
    (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => {
      const next = change(new URLSearchParams(latest.current));
      latest.current = next;
      setSearch(next, options);
    },
    [setSearch],
  );
  return [search, update];
}
