import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationUnits, parseDurationMs, parseSingleDurationMs } from './durations';

describe('parseDurationMs', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['1.5s', 1500],
    [' 1m30s ', 90_000],
    ['250', 250],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it('takes a number as milliseconds and refuses a negative or infinite one', () => {
    expect(parseDurationMs(1200)).toBe(1200);
    expect(parseDurationMs(-1)).toBeNull();
    expect(parseDurationMs(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it.each(['', 'abc', '5x', '1h 30m', 'h', '-5s', '5s!', '1mo'])('refuses %j', (text) => {
    expect(parseDurationMs(text)).toBeNull();
  });

  it('gives the same answer when called again after a failed parse', () => {
    expect(parseDurationMs('1h-')).toBeNull();
    expect(parseDurationMs('1h')).toBe(3_600_000);
  });
});

describe('parseSingleDurationMs', () => {
  it('reads one amount in one of the allowed units', () => {
    expect(parseSingleDurationMs('100ms', ['ms', 's'])).toBe(100);
    expect(parseSingleDurationMs(' 1.5s ', ['ms', 's'])).toBe(1500);
  });

  it.each(['2m', '1h', '5', '1s500ms', '1 s', 'ms', '-5ms'])('refuses %j when only ms and s are allowed', (text) => {
    expect(parseSingleDurationMs(text, ['ms', 's'])).toBeNull();
  });
});

describe('formatDuration', () => {
  it('shows under a second in ms, under a minute in s, under an hour in m, otherwise h', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(999)).toBe('999ms');
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(1500)).toBe('1.5s');
    expect(formatDuration(90_000)).toBe('1.5m');
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(5_400_000)).toBe('1.5h');
  });

  it('shows a negative duration as zero', () => {
    expect(formatDuration(-20)).toBe('0ms');
  });

  it('writes whole units from days down to seconds', () => {
    expect(formatDurationUnits(93_784_000)).toBe('1d 2h 3m 4s');
    expect(formatDurationUnits(120)).toBe('120ms');
  });

  it('reads back what it writes in whole units', () => {
    expect(parseDurationMs(formatDurationUnits(93_784_000).replaceAll(' ', ''))).toBe(93_784_000);
  });
});
