import { describe, expect, it } from 'vitest';
import { parseLine, parseTime } from './line-parser';

describe('parseLine', () => {
  it('reads a json line with its time, level, message and scalar fields', () => {
    const line = parseLine('{"time":"2026-01-02T03:04:05.123456789Z","level":"WARN","msg":"slow","order":"ORD-1","n":3}', { format: 'auto' });
    expect(line).toEqual({ time: Date.parse('2026-01-02T03:04:05.123Z'), message: 'slow', level: 'warn', fields: { order: 'ORD-1', n: '3' } });
  });

  it('reads a logfmt line, also after a leading timestamp', () => {
    expect(parseLine('ts=2026-01-02T03:04:05Z level=error msg="it broke" code=7', { format: 'auto' })).toMatchObject({ message: 'it broke', level: 'error', fields: { code: '7' } });
    expect(parseLine('2026-01-02T03:04:05Z level=info msg=ok', { format: 'auto' })).toMatchObject({ time: Date.parse('2026-01-02T03:04:05Z'), message: 'ok' });
  });

  it('reads a plain line with a space-separated UTC time and a bracketed level', () => {
    expect(parseLine('2026-01-02 03:04:05 [ERROR] disk full', { format: 'auto' })).toEqual({ time: Date.parse('2026-01-02T03:04:05Z'), message: 'disk full', level: 'error', fields: {} });
  });

  it('keeps a line without time or level as its message', () => {
    expect(parseLine('    at Object.<anonymous> (index.js:1:1)', { format: 'auto' })).toMatchObject({ time: null, level: null });
  });

  it('uses the configured time and message fields', () => {
    expect(parseLine('{"when":"2026-01-02T03:04:05Z","text":"hi","msg":"not this"}', { format: 'json', timestampField: 'when', messageField: 'text' })).toMatchObject({
      time: Date.parse('2026-01-02T03:04:05Z'),
      message: 'hi',
      fields: { msg: 'not this' },
    });
  });
});

describe('parseTime', () => {
  it('takes epoch seconds, milliseconds and nanoseconds', () => {
    expect(parseTime(1767322800)).toBe(1767322800000);
    expect(parseTime(1767322800000)).toBe(1767322800000);
    expect(parseTime('1767322800000000000')).toBe(1767322800000);
  });
});
