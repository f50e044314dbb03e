import dayjs, { type Dayjs, type OpUnitType } from 'dayjs';
import isoWeek from 'dayjs/plugin/isoWeek.js';

dayjs.extend(isoWeek);

/** Time-range keys and their length in minutes, as the spec fixes them (002 §9): a month is 30 days, a year 360. */
export const TIME_RANGE_MINUTES = {
  '15m': 15,
  '1h': 60,
  '2h': 120,
  '3h': 180,
  '6h': 360,
  '12h': 720,
  '1d': 1440,
  '2d': 2880,
  '3d': 4320,
  '1w': 10080,
  '2w': 20160,
  '3w': 30240,
  '1mo': 43200,
  '2mo': 86400,
  '3mo': 129600,
  '6mo': 259200,
  '1y': 518400,
  '2y': 1036800,
  '3y': 1555200,
  '5y': 2592000,
} as const;
export type TimeRangeKey = keyof typeof TIME_RANGE_MINUTES;
export const TIME_RANGE_KEYS = Object.keys(TIME_RANGE_MINUTES) as TimeRangeKey[];

const UNIT_MINUTES = { s: 1 / 60, m: 1, h: 60, d: 1440, w: 10080, mo: 43200, M: 43200, y: 518400 } as const;
type DurationUnit = keyof typeof UNIT_MINUTES;
const UNIT_NAMES: Record<DurationUnit, string> = {
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  mo: 'month',
  M: 'month',
  y: 'year',
};

export function isTimeRangeKey(value: string): value is TimeRangeKey {
  return Object.hasOwn(TIME_RANGE_MINUTES, value);
}

/**
 * 'Last 5 minutes', 'Last 24 hours', 'Last 6 months': the words for any relative length, for pickers whose lengths are
 * not time-range keys (the job history's '5m', '24h' or '6M').
 */
export function relativeRangeLabel(duration: string): string {
  const { amount, unit } = parseDuration(duration);
  const name = UNIT_NAMES[unit];
  return `Last ${amount} ${amount === 1 ? name : `${name}s`}`;
}

/** 'Last 15 minutes', 'Last 1 hour', 'Last 2 weeks'… */
export function timeRangeKeyLabel(key: TimeRangeKey): string {
  return relativeRangeLabel(key);
}

export interface RelativeTimeRange {
  type: 'relative';
  /** A date-math expression relative to now, e.g. 'now-2d'. */
  range: string;
}
export interface AbsoluteTimeRange {
  type: 'absolute';
  /** ISO 8601 instants. */
  from: string;
  to: string;
}
export interface MappedTimeRange {
  type: 'mapped';
  display: string;
  /** Date-math expressions with rounding, e.g. 'now-1d/d'. */
  from: string;
  to: string;
}
export type TimeRange = RelativeTimeRange | AbsoluteTimeRange | MappedTimeRange;
export type TimeRangeType = TimeRange['type'];

/** The fourteen quick ranges; weeks start on Monday. */
export const MAPPED_TIME_RANGES: readonly MappedTimeRange[] = [
  { type: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' },
  { type: 'mapped', display: 'Day before yesterday', from: 'now-2d/d', to: 'now-2d/d' },
  { type: 'mapped', display: 'This day last week', from: 'now-7d/d', to: 'now-7d/d' },
  { type: 'mapped', display: 'Previous week', from: 'now-1w/w', to: 'now-1w/w' },
  { type: 'mapped', display: 'Previous month', from: 'now-1M/M', to: 'now-1M/M' },
  { type: 'mapped', display: 'Previous year', from: 'now-1y/y', to: 'now-1y/y' },
  { type: 'mapped', display: 'Today', from: 'now/d', to: 'now/d' },
  { type: 'mapped', display: 'Today so far', from: 'now/d', to: 'now' },
  { type: 'mapped', display: 'This week', from: 'now/w', to: 'now/w' },
  { type: 'mapped', display: 'This week so far', from: 'now/w', to: 'now' },
  { type: 'mapped', display: 'This month', from: 'now/M', to: 'now/M' },
  { type: 'mapped', display: 'This month so far', from: 'now/M', to: 'now' },
  { type: 'mapped', display: 'This year', from: 'now/y', to: 'now/y' },
  { type: 'mapped', display: 'This year so far', from: 'now/y', to: 'now' },
];

export function relativeTimeRange(key: TimeRangeKey): RelativeTimeRange {
  return { type: 'relative', range: `now-${key}` };
}

interface Duration {
  amount: number;
  unit: DurationUnit;
}

const DURATION_PATTERN = /^(\d+)(mo|[smhdwMy])$/;

function parseDuration(text: string): Duration {
  const match = DURATION_PATTERN.exec(text);
  if (!match) throw new Error(`Invalid duration '${text}'`);
  return { amount: Number(match[1]), unit: match[2] as DurationUnit };
}

const DATE_MATH_PATTERN = /^now(?:-(\d+(?:mo|[smhdwMy])))?(?:\/([dwMy]))?$/;

export function isDateMath(expression: string): boolean {
  return DATE_MATH_PATTERN.test(expression.trim());
}

type RoundUnit = 'd' | 'w' | 'M' | 'y';

/** Weeks start on Monday (ISO weeks), whatever the locale says. */
const ROUND_UNITS: Record<RoundUnit, OpUnitType | 'isoWeek'> = { d: 'day', w: 'isoWeek', M: 'month', y: 'year' };

function subtract(now: Dayjs, { amount, unit }: Duration): Dayjs {
  // Calendar units move by the calendar, so 'now-1M/M' is the previous month even in 31-day months (31 March less a
  // month is the end of February). Shorter units are exact lengths of time, so 'now-1d' is always 24 hours back.
  if (unit === 'M' || unit === 'mo') return now.subtract(amount, 'month');
  if (unit === 'y') return now.subtract(amount, 'year');
  return now.subtract(amount * UNIT_MINUTES[unit] * 60_000, 'millisecond');
}

/**
 * Resolves 'now', 'now-2d', 'now-1d/d', 'now/w'. A rounded expression is the start of its unit, or its end
 * when `roundUp` is set (the `to` side of a range).
 */
export function parseDateMath(expression: string, now: Date, roundUp = false): Date {
  const match = DATE_MATH_PATTERN.exec(expression.trim());
  if (!match) throw new Error(`Invalid date expression '${expression}'`);
  const [, offset, round] = match;
  const shifted = offset ? subtract(dayjs(now), parseDuration(offset)) : dayjs(now);
  if (!round) return shifted.toDate();
  const unit = ROUND_UNITS[round as RoundUnit];
  return (roundUp ? shifted.endOf(unit) : shifted.startOf(unit)).toDate();
}

export function validateMappedTimeRange(range: MappedTimeRange, now: Date = new Date()): void {
  if (!isDateMath(range.from) || !isDateMath(range.to)) throw new Error('Invalid mapped time range');
  if (parseDateMath(range.from, now) > parseDateMath(range.to, now, true)) throw new Error('Invalid mapped time range');
}

export interface ResolvedTimeRange {
  from: Date;
  to: Date;
}

export function resolveTimeRange(range: TimeRange, now: Date = new Date()): ResolvedTimeRange {
  switch (range.type) {
    case 'relative':
      return { from: parseDateMath(range.range, now), to: new Date(now.getTime()) };
    case 'absolute': {
      const from = new Date(range.from);
      const to = new Date(range.to);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new Error('Invalid absolute time range');
      return { from, to };
    }
    case 'mapped':
      validateMappedTimeRange(range, now);
      return { from: parseDateMath(range.from, now), to: parseDateMath(range.to, now, true) };
  }
}

export function timeRangeMinutes(range: TimeRange, now: Date = new Date()): number {
  const { from, to } = resolveTimeRange(range, now);
  return Math.round(dayjs(to).diff(from) / 60_000);
}

export function timeRangeLabel(range: TimeRange): string {
  switch (range.type) {
    case 'relative': {
      const key = range.range.replace(/^now-/, '');
      return isTimeRangeKey(key) ? timeRangeKeyLabel(key) : range.range;
    }
    case 'absolute':
      return `${range.from} to ${range.to}`;
    case 'mapped':
      return range.display;
  }
}

/** Refresh rates of the health page (spec 001 §9), in milliseconds; 'none' stops polling. */
export const REFRESH_RATES = {
  none: 0,
  '15s': 15_000,
  '30s': 30_000,
  '60s': 60_000,
  '2m': 120_000,
  '3m': 180_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
} as const;
export type RefreshRate = keyof typeof REFRESH_RATES;
export const REFRESH_RATE_KEYS = Object.keys(REFRESH_RATES) as RefreshRate[];

/** Fast polling over long ranges is refused (spec 001 §4). */
export function isRefreshRateAllowed(rate: RefreshRate, rangeMinutes: number): boolean {
  if (rate === '15s' || rate === '30s') return rangeMinutes < 60;
  if (rate === '2m' || rate === '3m') return rangeMinutes < 180;
  return true;
}

/** Keeps an allowed rate; otherwise moves to the next allowed one, or to 'none'. */
export function nextAllowedRefreshRate(rate: RefreshRate, rangeMinutes: number): RefreshRate {
  const start = REFRESH_RATE_KEYS.indexOf(rate);
  return REFRESH_RATE_KEYS.slice(start).find((candidate) => isRefreshRateAllowed(candidate, rangeMinutes)) ?? 'none';
}
