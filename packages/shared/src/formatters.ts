import dayjs from 'dayjs';
import { AVATAR_MAX_INITIALS } from './constants';

/** Up to `digits` decimals, trailing zeros dropped: 1.50 → '1.5', 2.00 → '2'. */
function trimDecimals(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

/** One decimal when the value is not whole. */
export function formatPercent(value: number): string {
  return Number.isInteger(value) ? `${value}%` : `${value.toFixed(1)}%`;
}

const RELATIVE_UNITS: [string, number][] = [
  ['y', 365 * 86_400],
  ['mo', 30 * 86_400],
  ['d', 86_400],
  ['h', 3600],
  ['m', 60],
];

/** The distance between `date` and `now` in one short unit: '5s', '3m', '2h', '4d', '2mo', '1y'. */
export function formatRelativeTime(date: Date | string | number, now: Date = new Date()): string {
  const seconds = Math.abs(dayjs(now).diff(new Date(date), 'second'));
  for (const [suffix, size] of RELATIVE_UNITS) {
    if (seconds >= size) return `${Math.floor(seconds / size)}${suffix}`;
  }
  return `${seconds}s`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Binary multiples (1 KB = 1024 B), one decimal when not whole, up to YB. */
export function formatBytes(bytes: number): string {
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${bytes < 0 ? '-' : ''}${trimDecimals(value, 1)} ${BYTE_UNITS[unit]}`;
}

/** Counts above 999 are shown as whole thousands with a plus: 1200 → '1k+'. */
export function formatCount(count: number): string {
  return count > 999 ? `${Math.floor(count / 1000)}k+` : String(count);
}

/** Go's zero time (0001-01-01) is what the server sends for "never". */
export function isZeroDate(value: Date | string | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (typeof value === 'string' && value.startsWith('0001-01-01')) return true;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() <= 1;
}

export type DateFormat = 'time' | 'day' | 'datetime' | 'datetime-seconds';

const DATE_FORMATS: Record<DateFormat, string> = {
  time: 'h:mm A',
  day: 'MMM DD',
  datetime: 'YYYY-MM-DD HH:mm',
  // Log lines a second apart matter.
  'datetime-seconds': 'YYYY-MM-DD HH:mm:ss',
};

/** In local time, by the patterns above ('datetime' → 'YYYY-MM-DD HH:mm'); zero dates → ''. */
export function formatDate(value: Date | string | null | undefined, format: DateFormat = 'datetime'): string {
  if (isZeroDate(value)) return '';
  // Parsed as Date parses it: dayjs would read a date-only '2024-01-05' as local midnight rather than UTC.
  return dayjs(new Date(value as Date | string)).format(DATE_FORMATS[format]);
}

/** First letters of the first and last words, upper-cased, at most two. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/[\s._-]+/).filter(Boolean);
  if (words.length === 0) return '';
  const picked = words.length === 1 ? [words[0]] : [words[0], words[words.length - 1]];
  return picked
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, AVATAR_MAX_INITIALS);
}
