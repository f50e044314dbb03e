import type { IncomingHttpHeaders } from 'node:http';
import { apiErrors } from '../api-errors';
import { LIMITS } from '../limits';

export type CountMode = 'exact' | 'planned' | 'estimated' | null;

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

/** The first value of a header that may be sent more than once. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Refuses what no request may carry, whatever its target: an over-long URI, or a schema other than `public`. */
export function checkRequestShape(url: string, headers: IncomingHttpHeaders): void {
  if (Buffer.byteLength(url) > LIMITS.maxUrlBytes) throw apiErrors.uriTooLong();
  for (const header of ['accept-profile', 'content-profile']) {
    const value = headers[header];
    if (typeof value === 'string' && value !== '' && value !== 'public') throw apiErrors.schemaNotAllowed(value);
  }
}
