import { TIME_RANGE_MINUTES, isTimeRangeKey } from '@opsdeck/shared';

const UNIT_MINUTES: Record<string, number> = { s: 1 / 60, m: 1, h: 60, d: 1440, w: 10080, mo: 43200, y: 518400 };

/** A time-range key (spec 002 §9) or an amount with a unit (s, m, h, d, w, mo, y) to minutes; null when neither. */
export function rangeMinutes(text: string): number | null {
  if (isTimeRangeKey(text)) return TIME_RANGE_MINUTES[text];
  const match = /^(\d+)(s|m|h|d|w|mo|y)$/.exec(text.trim());
  if (match === null) return null;
  const minutes = Number(match[1]) * (UNIT_MINUTES[match[2] ?? ''] ?? 0);
  return minutes > 0 && minutes <= TIME_RANGE_MINUTES['5y'] ? minutes : null;
}

/**
 * Which table answers a range: raw statuses below an hour (few rows per check), hourly rollups up to two days, daily
 * rollups beyond (the range then starts at the UTC midnight before it: whole days only).
 */
export type RangeSource = 'raw' | '1h' | '1d';

export function sourceFor(minutes: number): RangeSource {
  if (minutes < 60) return 'raw';
  if (minutes <= 2880) return '1h';
  return '1d';
}
