import { parseSingleDurationMs } from '@opsdeck/shared';

/** Spec 001 §5 and §8. */
export const DURATION_FILTER_ERROR = 'duration is allowed only in milli seconds & seconds';
export const DURATION_FILTER_ALL = 'All';
export const DURATION_FILTER_OPTIONS = [DURATION_FILTER_ALL, '100ms', '500ms', '1s', '5s', '10s', '30s'] as const;

export type DurationFilterResult = { valid: true; minDurationMs: number | null } | { valid: false };

/** A plain number with 'ms' or 's', or All (no filter); anything else is refused. */
export function parseDurationFilter(text: string): DurationFilterResult {
  const trimmed = text.trim();
  if (trimmed === DURATION_FILTER_ALL) return { valid: true, minDurationMs: null };
  const ms = parseSingleDurationMs(trimmed, ['ms', 's']);
  return ms === null ? { valid: false } : { valid: true, minDurationMs: Math.round(ms) };
}
