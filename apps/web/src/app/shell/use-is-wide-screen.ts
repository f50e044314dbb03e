import { useSyncExternalStore } from 'react';

/** Tailwind's `lg` breakpoint: from here on the sidebar sits beside the page, below it the sidebar is a drawer. */
export const WIDE_SCREEN_PX = 1024;

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

function isWide(): boolean {
  return window.innerWidth >= WIDE_SCREEN_PX;
}

/** Whether the window is at least `lg` wide, following resizes and rotations. */
export function useIsWideScreen(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => true);
}
