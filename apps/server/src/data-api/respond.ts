import { apiErrors } from './api-errors';
import type { CountMode } from './build-sql';

export interface Preferences {
  return: 'representation' | 'minimal' | 'headers-only' | null;
  count: CountMode;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missingDefault: boolean;
}

/** Reads every `Prefer` header (clients may send several, or one comma-separated); unknown preferences are ignored. */
export function parsePreferences(header: string | string[] | undefined): Preferences {
  const prefs: Preferences = { return: null, count: null, resolution: null, missingDefault: false };
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const token of raw.split(',')) {
    const [key, value] = token.trim().split('=').map((part) => part.trim());
    if (key === 'return' && (value === 'representation' || value === 'minimal' || value === 'headers-only')) prefs.return = value;
    else if (key === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) prefs.count = value;
    else if (key === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) prefs.resolution = value;
    else if (key === 'missing' && value === 'default') prefs.missingDefault = true;
  }
  return prefs;
}

/** The preferences the response honoured, echoed in `Preference-Applied` as PostgREST does. */
export function appliedPreferences(prefs: Preferences): string | null {
  const applied: string[] = [];
  if (prefs.return !== null) applied.push(`return=${prefs.return}`);
  if (prefs.count !== null) applied.push(`count=${prefs.count}`);
  if (prefs.resolution !== null) applied.push(`resolution=${prefs.resolution}`);
  if (prefs.missingDefault) applied.push('missing=default');
  return applied.length === 0 ? null : applied.join(', ');
}

export interface RangeRequest {
  offset: number;
  /** Null when the header gave an open-ended range (`10-`). */
  limit: number | null;
}

/** `Range: 0-9` (unit `items`): an inclusive, zero-based window of rows. */
export function parseRangeHeader(header: string | undefined, unit: string | undefined): RangeRequest | null {
  if (header === undefined || header.trim() === '') return null;
  if (unit !== undefined && unit.trim() !== '' && unit.trim() !== 'items') throw apiErrors.invalidRange(`Range-Unit must be items, got '${unit}'`);
  const match = /^(?:items=)?\s*(\d{1,15})-(\d{0,15})\s*$/.exec(header);
  if (match === null) throw apiErrors.invalidRange(`Malformed Range header '${header}'`);
  const start = Number(match[1]);
  const end = match[2] === undefined || match[2] === '' ? null : Number(match[2]);
  if (end !== null && end < start) throw apiErrors.invalidRange(`The range ${start}-${end} ends before it starts`);
  return { offset: start, limit: end === null ? null : end - start + 1 };
}

/**
 * The `Content-Range` value and status for a page: `0-9/100` and 206 when the page is part of a known total,
 * `*\/100` for an empty page, and 416 when the page starts past the end of a known total.
 */
export function rangeOutcome(offset: number, rows: number, total: number | null): { contentRange: string; status: number } {
  const totalText = total === null ? '*' : String(total);
  const contentRange = rows === 0 ? `*/${totalText}` : `${offset}-${offset + rows - 1}/${totalText}`;
  if (total === null) return { contentRange, status: 200 };
  if (offset > total) return { contentRange, status: 416 };
  if (rows < total) return { contentRange, status: 206 };
  return { contentRange, status: 200 };
}

export type MediaType = 'array' | 'object';

/** The representation the client accepts: a JSON array (default) or a single object (`vnd.pgrst.object+json`). */
export function negotiate(accept: string | undefined): MediaType {
  if (accept === undefined || accept.trim() === '') return 'array';
  for (const part of accept.split(',')) {
    const type = (part.split(';')[0] ?? '').trim().toLowerCase();
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return 'object';
    if (['application/json', 'application/vnd.pgrst.array+json', 'application/*', '*/*'].includes(type)) return 'array';
  }
  throw apiErrors.notAcceptable(accept);
}
