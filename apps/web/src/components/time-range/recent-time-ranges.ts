import { useCallback, useState } from 'react';
import { RECENT_ABSOLUTE_RANGES_MAX, type AbsoluteTimeRange } from '@opsdeck/shared';

export const RECENT_TIME_RANGES_STORAGE_KEY = 'opsdeck.recentAbsoluteTimeRanges';

function isAbsoluteRange(value: unknown): value is AbsoluteTimeRange {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return candidate.type === 'absolute' && typeof candidate.from === 'string' && typeof candidate.to === 'string';
}

export function readRecentTimeRanges(): AbsoluteTimeRange[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(RECENT_TIME_RANGES_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isAbsoluteRange).slice(0, RECENT_ABSOLUTE_RANGES_MAX) : [];
  } catch {
    return [];
  }
}

/** Newest first, without duplicates, at most five (spec 001 §9). */
export function addRecentTimeRange(list: readonly AbsoluteTimeRange[], range: AbsoluteTimeRange): AbsoluteTimeRange[] {
  const others = list.filter((item) => item.from !== range.from || item.to !== range.to);
  return [range, ...others].slice(0, RECENT_ABSOLUTE_RANGES_MAX);
}

export function useRecentTimeRanges() {
  const [recent, setRecent] = useState<AbsoluteTimeRange[]>(readRecentTimeRanges);
  const remember = useCallback((range: AbsoluteTimeRange) => {
    setRecent((current) => {
      const next = addRecentTimeRange(current, range);
      localStorage.setItem(RECENT_TIME_RANGES_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return { recent, remember };
}
