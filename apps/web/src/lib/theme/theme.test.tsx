import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { startTheme, THEME_STORAGE_KEY, useTheme } from './theme';

/** A `prefers-color-scheme: dark` query whose answer the test flips, telling listeners as a browser does. */
class FakeDarkQuery extends EventTarget {
  readonly media = '(prefers-color-scheme: dark)';
  onchange = null;
  constructor(public matches: boolean) {
    super();
  }
  flip(matches: boolean) {
    this.matches = matches;
    this.dispatchEvent(new Event('change'));
  }
  addListener() {}
  removeListener() {}
}

let system: FakeDarkQuery;
const originalMatchMedia = window.matchMedia;
const html = document.documentElement;

beforeEach(() => {
  system = new FakeDarkQuery(false);
  window.matchMedia = ((query: string) => {
    if (query !== system.media) throw new Error(`Unexpected media query ${query}`);
    return system;
  }) as unknown as typeof window.matchMedia;
});

afterEach(() => {
  window.matchMedia = originalMatchMedia;
  html.classList.remove('dark');
  html.style.colorScheme = '';
});

describe('useTheme', () => {
  it('follows the system preference while nothing is chosen, and marks <html> for the palette and the browser', () => {
    system.matches = true;
    const { result } = renderHook(() => useTheme());
    expect(result.current.preference).toBe('system');
    expect(result.current.theme).toBe('dark');
    act(() => result.current.setPreference('system'));
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
  });

  it('switches live when the operating system changes its colour scheme, as long as the choice is "system"', () => {
    const stop = startTheme();
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe('light');
    expect(html).not.toHaveClass('dark');

    act(() => system.flip(true));
    expect(result.current.theme).toBe('dark');
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');

    act(() => system.flip(false));
    expect(result.current.theme).toBe('light');
    expect(html).not.toHaveClass('dark');
    stop();
  });

  it('keeps an explicit choice in localStorage and ignores the system while it stands', () => {
    const stop = startTheme();
    const { result } = renderHook(() => useTheme());
    act(() => result.current.setPreference('dark'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(result.current).toMatchObject({ preference: 'dark', theme: 'dark' });
    expect(html).toHaveClass('dark');

    act(() => system.flip(false));
    expect(result.current.theme).toBe('dark');
    expect(html).toHaveClass('dark');

    act(() => result.current.setPreference('system'));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(result.current).toMatchObject({ preference: 'system', theme: 'light' });
    expect(html).not.toHaveClass('dark');
    expect(html.style.colorScheme).toBe('light');
    stop();
  });

  it('reads the stored choice on start, before anything renders, so the first paint has the right theme', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    const stop = startTheme();
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
    stop();
  });

  it('treats an unknown stored value as "system"', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    system.matches = true;
    const { result } = renderHook(() => useTheme());
    expect(result.current).toMatchObject({ preference: 'system', theme: 'dark' });
  });

  it('toggles from what is shown to the other theme and keeps that as the choice', () => {
    system.matches = true;
    const { result } = renderHook(() => useTheme());
    act(() => result.current.toggle());
    expect(result.current).toMatchObject({ preference: 'light', theme: 'light' });
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    act(() => result.current.toggle());
    expect(result.current).toMatchObject({ preference: 'dark', theme: 'dark' });
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('keeps every mounted hook in step, and follows a choice made in another tab', () => {
    const first = renderHook(() => useTheme());
    const second = renderHook(() => useTheme());
    act(() => first.result.current.setPreference('dark'));
    expect(second.result.current.theme).toBe('dark');

    act(() => {
      localStorage.setItem(THEME_STORAGE_KEY, 'light');
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'light' }));
    });
    expect(first.result.current).toMatchObject({ preference: 'light', theme: 'light' });
    expect(html).not.toHaveClass('dark');
  });
});
