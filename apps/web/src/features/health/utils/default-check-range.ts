import { TIME_RANGE_KEYS, TIME_RANGE_MINUTES, isZeroDate, type TimeRangeKey } from '@opsdeck/shared';

/** The ranges a check can default to, 1h up to 5y (spec 001 §9). */
const CHECK_RANGE_BUCKETS = TIME_RANGE_KEYS.slice(TIME_RANGE_KEYS.indexOf('1h'));
/** The second option of the list. */
export const FALLBACK_CHECK_RANGE: TimeRangeKey = TIME_RANGE_KEYS[1] ?? '1h';

/** The smallest range that still holds the last run, so a check that ran long ago opens on its last results. */
export function defaultCheckRange(lastRuntime: string | null, now: Date = new Date()): TimeRangeKey {
  if (lastRuntime === null || isZeroDate(lastRuntime)) return FALLBACK_CHECK_RANGE;
  const ageMinutes = (now.getTime() - new Date(lastRuntime).getTime()) / 60_000;
  return CHECK_RANGE_BUCKETS.find((key) => TIME_RANGE_MINUTES[key] >= ageMinutes) ?? FALLBACK_CHECK_RANGE;
}
