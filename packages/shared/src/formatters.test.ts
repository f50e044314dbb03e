import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDate,
  formatPercent,
  formatRelativeTime,
  initials,
  isZeroDate,
} from './formatters';

describe('formatPercent', () => {
  it('shows whole values without decimals and others with one', () => {
    expect(formatPercent(50)).toBe('50%');
    expect(formatPercent(33.333)).toBe('33.3%');
    expect(formatPercent(99.96)).toBe('100.0%');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2024-05-15T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('uses one short unit', () => {
    expect(formatRelativeTime(ago(5), now)).toBe('5s');
    expect(formatRelativeTime(ago(180), now)).toBe('3m');
    expect(formatRelativeTime(ago(2 * 3600), now)).toBe('2h');
    expect(formatRelativeTime(ago(4 * 86400), now)).toBe('4d');
    expect(formatRelativeTime(ago(65 * 86400), now)).toBe('2mo');
    expect(formatRelativeTime(ago(400 * 86400), now)).toBe('1y');
  });
});

describe('formatBytes', () => {
  it('scales by 1024 up to YB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 3)).toBe('1 GB');
    expect(formatBytes(1024 ** 8)).toBe('1 YB');
    expect(formatBytes(1024 ** 9)).toBe('1024 YB');
  });
});

describe('formatCount', () => {
  it('shows counts above 999 as thousands with a plus', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1k+');
    expect(formatCount(1999)).toBe('1k+');
    expect(formatCount(25_000)).toBe('25k+');
  });
});

describe('formatDate', () => {
  const date = new Date(2024, 0, 5, 14, 7);

  it('formats times, days and date-times', () => {
    expect(formatDate(date, 'time')).toBe('2:07 PM');
    expect(formatDate(new Date(2024, 0, 5, 0, 30), 'time')).toBe('12:30 AM');
    expect(formatDate(date, 'day')).toBe('Jan 05');
    expect(formatDate(date, 'datetime')).toBe('2024-01-05 14:07');
  });

  it('formats a date-time to the second for log lines', () => {
    expect(formatDate(new Date(2024, 0, 5, 9, 3, 7), 'datetime-seconds')).toBe('2024-01-05 09:03:07');
  });

  it('reads a date-only string as UTC midnight, as Date does', () => {
    const utcMidnight = new Date(Date.UTC(2024, 0, 5));
    expect(formatDate('2024-01-05', 'datetime')).toBe(formatDate(utcMidnight, 'datetime'));
  });

  it('treats the zero date 0001-01-01 and missing values as empty', () => {
    expect(formatDate('0001-01-01T00:00:00Z')).toBe('');
    expect(formatDate(null)).toBe('');
    expect(isZeroDate('0001-01-01')).toBe(true);
    expect(isZeroDate('2024-01-01')).toBe(false);
  });
});

describe('initials', () => {
  it('takes at most two letters from the first and last words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('john ronald reuel tolkien')).toBe('JT');
    expect(initials('Prince')).toBe('P');
    expect(initials('')).toBe('');
    expect(initials(undefined)).toBe('');
  });
});
