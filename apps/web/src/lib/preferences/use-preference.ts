import { useCallback, useSyncExternalStore } from 'react';

/** Whether the catalog leaves out deleted items; 'yes' or 'no' (spec 000 §2). */
export const HIDE_DELETED_CATALOG_KEY = 'hideDeletedCatalog';

// The storage event only reaches other tabs, so writes in this tab are announced with our own event.
const LOCAL_CHANGE_EVENT = 'opsdeck:preference-change';

export function readPreference(key: string, fallback: string): string {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
}

export function writePreference(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new CustomEvent<string>(LOCAL_CHANGE_EVENT, { detail: key }));
}

function subscribe(key: string, onChange: () => void): () => void {
  const handleStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) onChange();
  };
  const handleLocal = (event: Event) => {
    if (event instanceof CustomEvent && event.detail === key) onChange();
  };
  window.addEventListener('storage', handleStorage);
  window.addEventListener(LOCAL_CHANGE_EVENT, handleLocal);
  return () => {
    window.removeEventListener('storage', handleStorage);
    window.removeEventListener(LOCAL_CHANGE_EVENT, handleLocal);
  };
}

/** A string preference in localStorage, kept in step across components and tabs. `null` removes it. */
export function usePreference(key: string, fallback: string): [string, (value: string | null) => void] {
  const value = useSyncExternalStore(
    useCallback((onChange) => subscribe(key, onChange), [key]),
    () => readPreference(key, fallback),
    () => fallback,
  );
  const setValue = useCallback((next: string | null) => writePreference(key, next), [key]);
  return [value, setValue];
}
