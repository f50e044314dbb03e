import { describe, expect, it } from 'vitest';
import { formatPropertyValue, formatQuantity, isOverUsage, safeColor, safeHref, usagePercent } from './property-format';

describe('topology property formatting', () => {
  it('shows millicores as cores with two decimals', () => {
    expect(formatQuantity(1500, 'millicores')).toBe('1.50 cores');
    expect(formatQuantity(250, 'millicores')).toBe('0.25 cores');
  });

  it('shows bytes in binary multiples', () => {
    expect(formatQuantity(1536, 'bytes')).toBe('1.5 KB');
  });

  it('shows the max beside the value and how full it is', () => {
    const property = { name: 'memory', value: 3 * 1024 ** 3, max: 4 * 1024 ** 3, unit: 'bytes' };
    expect(formatPropertyValue(property)).toBe('3 GB / 4 GB');
    expect(usagePercent(property)).toBe(75);
    expect(isOverUsage(property)).toBe(true);
  });

  it('marks a percentage above 70 as high and 70 itself as not', () => {
    expect(isOverUsage({ name: 'cpu', value: 71, unit: 'percent' })).toBe(true);
    expect(isOverUsage({ name: 'cpu', value: 70, unit: 'percent' })).toBe(false);
  });

  it('falls back to the text of a text property', () => {
    expect(formatPropertyValue({ name: 'version', text: 'v1.2.3' })).toBe('v1.2.3');
  });

  it('refuses script URLs and odd colours', () => {
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://example.com/x')).toBe('https://example.com/x');
    expect(safeHref('/catalog')).toBe('/catalog');
    expect(safeColor('red')).toBe('red');
    expect(safeColor('url(x)')).toBeUndefined();
  });
});
