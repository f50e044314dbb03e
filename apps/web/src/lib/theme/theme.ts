import { useCallback, useSyncExternalStore } from 'react';

/** What the page is painted in. */
export type Theme = 'light' | 'dark';
/** What the person chose; 'system' follows the operating system's `prefers-color-scheme`. */
export type ThemePreference = Theme | 'system';

/** localStorage key holding the person's choice (absent means 'system'). */
export const THEME_STORAGE_KEY = 'opsdeck.theme';
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];
const DARK_QUERY = '(prefers-color-scheme: dark)';
// The storage event only reaches other tabs, so changes in this tab are announced with our own event.
const CHANGE_EVENT = 'opsdeck:theme-change';

// Used only when localStorage refuses (privacy settings): the choice then lasts until the page reloads.
let unstoredPreference: ThemePreference | null = null;

function isPreference(value: string | null): value is ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system';
}

export function readThemePreference(): ThemePreference {
  if (unstoredPreference !== null) return unstoredPreference;
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isPreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function darkQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

export function systemTheme(): Theme {
  return darkQuery()?.matches === true ? 'dark' : 'light';
}

export function resolveTheme(preference: ThemePreference): Theme {
  return preference === 'system' ? systemTheme() : preference;
}

/** Puts the theme on `<html>`: the `dark` class drives the palette, `color-scheme` the browser's own widgets. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

function reapply(): void {
  applyTheme(resolveTheme(readThemePreference()));
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function handleStorage(event: StorageEvent): void {
  if (event.key === THEME_STORAGE_KEY || event.key === null) reapply();
}

let watching = false;

/**
 * Applies the stored choice and keeps `<html>` in step with the system and with other tabs from then on.
 * main.tsx calls it before React renders, so the first paint already has the right colours (the CSP forbids
 * an inline script in index.html). Returns a function that stops watching (for tests).
 */
export function startTheme(): () => void {
  applyTheme(resolveTheme(readThemePreference()));
  if (watching) return () => undefined;
  watching = true;
  const query = darkQuery();
  query?.addEventListener('change', reapply);
  window.addEventListener('storage', handleStorage);
  return () => {
    watching = false;
    query?.removeEventListener('change', reapply);
    window.removeEventListener('storage', handleStorage);
  };
}

export function setThemePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, preference);
    unstoredPreference = null;
  } catch {
    unstoredPreference = preference;
  }
  reapply();
}

/** Flips between light and dark from what is shown now; the result is kept as an explicit choice. */
export function toggleTheme(): void {
  setThemePreference(resolveTheme(readThemePreference()) === 'dark' ? 'light' : 'dark');
}

function subscribe(onChange: () => void): () => void {
  // The system query is listened to here too, so a component re-renders even if startTheme was never called.
  const query = darkQuery();
  const handleSystem = () => {
    applyTheme(resolveTheme(readThemePreference()));
    onChange();
  };
  const handleOtherTab = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) handleSystem();
  };
  query?.addEventListener('change', handleSystem);
  window.addEventListener('storage', handleOtherTab);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    query?.removeEventListener('change', handleSystem);
    window.removeEventListener('storage', handleOtherTab);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

type Snapshot = `${ThemePreference}:${Theme}`;

// One string so useSyncExternalStore compares snapshots by value.
function snapshot(): Snapshot {
  const preference = readThemePreference();
  return `${preference}:${resolveTheme(preference)}`;
}

export interface UseThemeResult {
  theme: Theme;
  preference: ThemePreference;
  setPreference: (preference: ThemePreference) => void;
  toggle: () => void;
}

/** The theme shown and the person's choice, following the system live while the choice is 'system'. */
export function useTheme(): UseThemeResult {
  const current = useSyncExternalStore<Snapshot>(subscribe, snapshot, () => 'system:light');
  const [preference, theme] = current.split(':') as [ThemePreference, Theme];
  const setPreference = useCallback((next: ThemePreference) => setThemePreference(next), []);
  const toggle = useCallback(() => toggleTheme(), []);
  return { theme, preference, setPreference, toggle };
}
