import { formatBytes } from '@opsdeck/shared';
import type { ComponentProperty } from '../api/types';

/** Spec 001 §9: resource usage above this percentage shows red. */
export const USAGE_RED_ABOVE_PERCENT = 70;

const MILLI_PREFIX = 'milli';
const BYTE_UNITS: ReadonlySet<string> = new Set(['bytes', 'byte', 'b']);
const PERCENT_UNITS: ReadonlySet<string> = new Set(['percent', '%']);

function trimNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A number in its unit: bytes in binary multiples, milli units divided by 1000 to 2 decimals (millicores → cores). */
export function formatQuantity(value: number, unit: string | undefined): string {
  const normalized = unit?.trim().toLowerCase() ?? '';
  if (BYTE_UNITS.has(normalized)) return formatBytes(value);
  if (PERCENT_UNITS.has(normalized)) return `${trimNumber(value)}%`;
  if (normalized.startsWith(MILLI_PREFIX) && normalized.length > MILLI_PREFIX.length) {
    return `${(value / 1000).toFixed(2)} ${normalized.slice(MILLI_PREFIX.length)}`;
  }
  return normalized === '' ? trimNumber(value) : `${trimNumber(value)} ${unit?.trim() ?? ''}`;
}

/** How full a property with a `max` is, 0–100; null without a usable max. */
export function usagePercent(property: ComponentProperty): number | null {
  if (typeof property.value !== 'number' || typeof property.max !== 'number' || property.max <= 0) return null;
  const min = typeof property.min === 'number' ? property.min : 0;
  const span = property.max - min;
  if (span <= 0) return null;
  return Math.min(100, Math.max(0, ((property.value - min) / span) * 100));
}

/** Whether the value reads as a resource running hot: a percent property, or a bar, above 70%. */
export function isOverUsage(property: ComponentProperty): boolean {
  const percent = usagePercent(property) ?? (PERCENT_UNITS.has(property.unit?.trim().toLowerCase() ?? '') ? property.value : undefined);
  return typeof percent === 'number' && percent > USAGE_RED_ABOVE_PERCENT;
}

/**
 * What a property shows: its number in its unit, followed by the max unless `withMax` is false (a headline metric
 * draws the max as its bar instead), else its text.
 */
export function formatPropertyValue(property: ComponentProperty, withMax = true): string {
  if (typeof property.value === 'number') {
    const shown = formatQuantity(property.value, property.unit);
    return withMax && typeof property.max === 'number' ? `${shown} / ${formatQuantity(property.max, property.unit)}` : shown;
  }
  return property.text ?? '';
}

export function propertyLabel(property: ComponentProperty): string {
  return property.label ?? property.name;
}

/** Only web and relative addresses become links; a `javascript:` URL from a scraped property must never run. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const CSS_COLOR = /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i;

/** A property's colour when it is a plain CSS colour name or hex value; anything else is ignored. */
export function safeColor(color: string | undefined): string | undefined {
  return color !== undefined && CSS_COLOR.test(color.trim()) ? color.trim() : undefined;
}
