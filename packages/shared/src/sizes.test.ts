import { describe, expect, it } from 'vitest';
import { parseSizeBytes } from './sizes';

describe('parseSizeBytes', () => {
  it.each([
    ['512', 512],
    ['10MB', 10_000_000],
    ['1Gi', 1024 ** 3],
    [' 2 kib ', 2048],
  ])('reads %j as %d bytes', (text, bytes) => {
    expect(parseSizeBytes(text)).toBe(bytes);
  });

  it.each(['10XB', 'MB', '-1', '1constructor'])('refuses %j', (text) => {
    expect(parseSizeBytes(text)).toBeNull();
  });
});
