import { useCallback, useState } from 'react';

export const SIDEBAR_STORAGE_KEY = 'opsdeck.sidebar.collapsed';

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(SIDEBAR_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The sidebar's expanded or collapsed state, remembered across visits. */
export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsedState] = useState(readCollapsed);
  const setCollapsed = useCallback((next: boolean) => {
    setCollapsedState(next);
    try {
      window.localStorage.setItem(SIDEBAR_STORAGE_KEY, String(next));
    } catch {
      // Private browsing may refuse storage; the choice then lasts for this page only.
    }
  }, []);
  return [collapsed, setCollapsed];
}
