import { AVATAR_MAX_INITIALS } from './constants';

/** Up to `digits` decimals, trailing zeros dropped: 1.50 → '1.5', 2.00 → '2'. */
function trimDecimals(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

/** Under 1 s in ms, under 1 min in s, under 1 h in m, otherwise h (spec 000 §9). */
export function formatDuration(milliseconds: number): string {
  const ms = Math.max(0, milliseconds);
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${trimDecimals(ms / 1000, 1)}s`;
  if (ms < 3_600_000) return `${trimDecimals(ms / 60_000, 1)}m`;
  return `${trimDecimals(ms / 3_600_000, 1)}h`;
}

/** Whole units from days down to seconds, e.g. '1d 2h 5m'; under a second it is given in ms. */
export function formatDurationUnits(milliseconds: number): string {
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < 1000) return `${ms}ms`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  let rest = ms;
  const parts: string[] = [];
  for (const [suffix, size] of units) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0) parts.push(`${amount}${suffix}`);
  }
  return parts.join(' ');
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
  const seconds = Math.floor(Math.abs(now.getTime() - new Date(date).getTime()) / 1000);
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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

/** Go's zero time (0001-01-01) is what the server sends for "never". */
export function isZeroDate(value: Date | string | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (typeof value === 'string' && value.startsWith('0001-01-01')) return true;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() <= 1;
}

export type DateFormat = 'time' | 'day' | 'datetime';

/** 'time' → 'h:mm A', 'day' → 'MMM DD', 'datetime' → 'YYYY-MM-DD HH:mm', in local time; zero dates → ''. */
export function formatDate(value: Date | string | null | undefined, format: DateFormat = 'datetime'): string {
  if (isZeroDate(value)) return '';
  const date = new Date(value as Date | string);
  switch (format) {
    case 'time': {
      const hours = date.getHours();
      return `${hours % 12 === 0 ? 12 : hours % 12}:${pad(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
    }
    case 'day':
      return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}`;
    case 'datetime':
      return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
  }
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
