import { describe, expect, it } from 'vitest';
import {
  MAPPED_TIME_RANGES,
  TIME_RANGE_KEYS,
  TIME_RANGE_MINUTES,
  nextAllowedRefreshRate,
  isRefreshRateAllowed,
  parseDateMath,
  relativeRangeLabel,
  relativeTimeRange,
  resolveTimeRange,
  timeRangeKeyLabel,
  timeRangeLabel,
  timeRangeMinutes,
  validateMappedTimeRange,
} from './time-ranges';

// A Wednesday, in local time so rounding is independent of the machine's zone.
const now = new Date(2024, 4, 15, 13, 45, 30);

describe('time ranges', () => {
  it('offers the twenty keys from 15m to 5y in order', () => {
    expect(TIME_RANGE_KEYS).toEqual([
      '15m', '1h', '2h', '3h', '6h', '12h', '1d', '2d', '3d', '1w', '2w', '3w', '1mo', '2mo', '3mo', '6mo', '1y', '2y', '3y', '5y',
    ]);
  });

  it('maps keys to the minutes given by the spec', () => {
    expect(TIME_RANGE_MINUTES['15m']).toBe(15);
    expect(TIME_RANGE_MINUTES['1w']).toBe(10080);
    expect(TIME_RANGE_MINUTES['1mo']).toBe(43200);
    expect(TIME_RANGE_MINUTES['1y']).toBe(518400);
    expect(TIME_RANGE_MINUTES['5y']).toBe(2592000);
  });

  it('labels keys in words', () => {
    expect(timeRangeKeyLabel('15m')).toBe('Last 15 minutes');
    expect(timeRangeKeyLabel('1h')).toBe('Last 1 hour');
    expect(timeRangeKeyLabel('3mo')).toBe('Last 3 months');
    expect(timeRangeLabel(relativeTimeRange('2d'))).toBe('Last 2 days');
    expect(MAPPED_TIME_RANGES.map(timeRangeLabel)).toContain('Yesterday');
  });

  it('labels lengths that are not keys, calendar months included, and refuses what is not a length', () => {
    expect(relativeRangeLabel('5m')).toBe('Last 5 minutes');
    expect(relativeRangeLabel('24h')).toBe('Last 24 hours');
    expect(relativeRangeLabel('1M')).toBe('Last 1 month');
    expect(relativeRangeLabel('6M')).toBe('Last 6 months');
    expect(() => relativeRangeLabel('now-5m')).toThrow();
  });

  it('parses now-2d as two days before now', () => {
    expect(parseDateMath('now-2d', now)).toEqual(new Date(2024, 4, 13, 13, 45, 30));
    expect(parseDateMath('now', now)).toEqual(now);
    expect(parseDateMath('now-15m', now)).toEqual(new Date(2024, 4, 15, 13, 30, 30));
  });

  it('rounds to the start of a unit, or to its end on the upper side', () => {
    expect(parseDateMath('now-1d/d', now)).toEqual(new Date(2024, 4, 14));
    expect(parseDateMath('now-1d/d', now, true)).toEqual(new Date(2024, 4, 14, 23, 59, 59, 999));
    expect(parseDateMath('now/w', now)).toEqual(new Date(2024, 4, 13));
    expect(parseDateMath('now-1M/M', now)).toEqual(new Date(2024, 3, 1));
    expect(parseDateMath('now/y', now, true)).toEqual(new Date(2024, 11, 31, 23, 59, 59, 999));
  });

  it('takes the previous month from the 31st to the month before, not back to the same month', () => {
    const endOfMarch = new Date(2024, 2, 31, 10);
    expect(parseDateMath('now-1M/M', endOfMarch)).toEqual(new Date(2024, 1, 1));
    expect(parseDateMath('now-1M/M', endOfMarch, true)).toEqual(new Date(2024, 1, 29, 23, 59, 59, 999));
  });

  it('starts weeks on Monday, even from a Sunday', () => {
    const sunday = new Date(2024, 4, 19, 8);
    expect(parseDateMath('now/w', sunday)).toEqual(new Date(2024, 4, 13));
    expect(parseDateMath('now/w', sunday, true)).toEqual(new Date(2024, 4, 19, 23, 59, 59, 999));
  });

  it('refuses expressions that are not date math', () => {
    expect(() => parseDateMath('yesterday', now)).toThrow();
    expect(() => parseDateMath('now-2x', now)).toThrow();
  });

  it('resolves a relative range to now minus the key', () => {
    expect(resolveTimeRange(relativeTimeRange('1h'), now)).toEqual({ from: new Date(2024, 4, 15, 12, 45, 30), to: now });
    expect(timeRangeMinutes(relativeTimeRange('6h'), now)).toBe(360);
  });

  it('resolves an absolute range from its instants', () => {
    const range = resolveTimeRange({ type: 'absolute', from: '2024-01-01T00:00:00Z', to: '2024-01-02T00:00:00Z' });
    expect(range.to.getTime() - range.from.getTime()).toBe(86_400_000);
    expect(() => resolveTimeRange({ type: 'absolute', from: 'nope', to: '2024-01-02T00:00:00Z' })).toThrow();
  });

  it('offers fourteen mapped quick ranges that are all valid', () => {
    expect(MAPPED_TIME_RANGES).toHaveLength(14);
    for (const range of MAPPED_TIME_RANGES) expect(() => validateMappedTimeRange(range, now)).not.toThrow();
    const today = MAPPED_TIME_RANGES.find((range) => range.display === 'Today so far');
    expect(today && resolveTimeRange(today, now)).toEqual({ from: new Date(2024, 4, 15), to: now });
  });

  it("rejects a mapped range that cannot be parsed or ends before it starts with 'Invalid mapped time range'", () => {
    expect(() => validateMappedTimeRange({ type: 'mapped', display: 'x', from: 'later', to: 'now' }, now)).toThrow(
      'Invalid mapped time range',
    );
    expect(() => validateMappedTimeRange({ type: 'mapped', display: 'x', from: 'now', to: 'now-1d/d' }, now)).toThrow(
      'Invalid mapped time range',
    );
  });

  it('disables fast refresh rates for long ranges', () => {
    expect(isRefreshRateAllowed('15s', 59)).toBe(true);
    expect(isRefreshRateAllowed('15s', 60)).toBe(false);
    expect(isRefreshRateAllowed('30s', 60)).toBe(false);
    expect(isRefreshRateAllowed('2m', 179)).toBe(true);
    expect(isRefreshRateAllowed('3m', 180)).toBe(false);
    expect(isRefreshRateAllowed('5m', 1_000_000)).toBe(true);
  });

  it('moves a refresh rate that became disabled to the next allowed one', () => {
    expect(nextAllowedRefreshRate('15s', 60)).toBe('60s');
    expect(nextAllowedRefreshRate('2m', 180)).toBe('5m');
    expect(nextAllowedRefreshRate('15s', 30)).toBe('15s');
    expect(nextAllowedRefreshRate('none', 5000)).toBe('none');
  });
});
