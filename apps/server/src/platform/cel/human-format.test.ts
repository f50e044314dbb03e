import { describe, expect, it } from 'vitest';
import { humanDuration, humanSize, parseGoDuration } from './human-format';

describe('durations and sizes as people write them', () => {
  it.each([
    ['1h30m', 5_400e9],
    ['7d', 604_800e9],
    ['-2h45m', -9_900e9],
    ['1.5s', 1.5e9],
    ['250ms', 250e6],
    ['0', 0],
  ])('reads %s', (text, nanos) => {
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it('reads nothing from text that is not a duration', () => {
    expect(parseGoDuration('soon')).toBeNull();
    expect(parseGoDuration('10')).toBeNull();
  });

  it.each([
    [0, '0s'],
    [999, '999ns'],
    [3600, '3.6µs'],
    [250e6, '250ms'],
    [1.5e9, '1.5s'],
    [3_660e9, '1h1m'],
    [180_360e9, '2d2h6m'],
    [2_685_600e9, '4w3d2h'],
    [-90e9, '-1m30s'],
  ])('writes %d ns as %s', (nanos, text) => {
    expect(humanDuration(nanos)).toBe(text);
  });

  it.each([
    [0, '0B'],
    [512, '512B'],
    [1536, '1.5K'],
    [1_048_576, '1M'],
    [10 * 1024 ** 3, '10G'],
  ])('writes %d bytes as %s', (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });
});
