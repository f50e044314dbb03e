import { useEffect } from 'react';
import { REFRESH_RATES, REFRESH_RATE_KEYS, nextAllowedRefreshRate, type RefreshRate } from '@opsdeck/shared';
import { usePreference } from '@/lib/preferences/use-preference';

/** Spec 001 §2.8: the local-storage key; None removes it. */
export const REFRESH_RATE_STORAGE_KEY = 'healthPageRefreshRate';

export const REFRESH_RATE_LABELS: Record<RefreshRate, string> = {
  none: 'None',
  '15s': '15s',
  '30s': '30s',
  '60s': '60s (1 minute)',
  '2m': '2m',
  '3m': '3m',
  '5m': '5m',
  '10m': '10m',
  '15m': '15m',
};

function isRefreshRate(value: string): value is RefreshRate {
  return (REFRESH_RATE_KEYS as readonly string[]).includes(value);
}

export interface RefreshRateState {
  rate: RefreshRate;
  intervalMs: number;
  setRate: (rate: RefreshRate) => void;
}

/**
 * The stored rate, moved to the next allowed one (or None) when the time range makes it unavailable (spec 001 §4);
 * the move is written back so the choice stays what the control shows.
 */
export function useRefreshRate(rangeMinutes: number): RefreshRateState {
  const [stored, setStored] = usePreference(REFRESH_RATE_STORAGE_KEY, 'none');
  const chosen: RefreshRate = isRefreshRate(stored) ? stored : 'none';
  const rate = nextAllowedRefreshRate(chosen, rangeMinutes);
  useEffect(() => {
    if (rate !== chosen) setStored(rate === 'none' ? null : rate);
  }, [rate, chosen, setStored]);
  const setRate = (next: RefreshRate) => setStored(next === 'none' ? null : next);
  return { rate, intervalMs: REFRESH_RATES[rate], setRate };
}
