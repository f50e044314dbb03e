import { useSyncExternalStore } from 'react';

/** Below this height the Health Overview chart moves from above the tabs into a Graph tab (spec 001 §2.3). */
export const SHORT_SCREEN_QUERY = '(max-height: 760px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(SHORT_SCREEN_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function isShort(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(SHORT_SCREEN_QUERY).matches;
}

export function useShortScreen(): boolean {
  return useSyncExternalStore(subscribe, isShort, () => false);
}
