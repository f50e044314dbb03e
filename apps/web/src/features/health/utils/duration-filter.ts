/** Spec 001 §5 and §8. */
export const DURATION_FILTER_ERROR = 'duration is allowed only in milli seconds & seconds';
export const DURATION_FILTER_ALL = 'All';
export const DURATION_FILTER_OPTIONS = [DURATION_FILTER_ALL, '100ms', '500ms', '1s', '5s', '10s', '30s'] as const;

export type DurationFilterResult = { valid: true; minDurationMs: number | null } | { valid: false };

const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(ms|s)$/;

/** A plain number with 'ms' or 's', or All (no filter); anything else is refused. */
export function parseDurationFilter(text: string): DurationFilterResult {
  const trimmed = text.trim();
  if (trimmed === DURATION_FILTER_ALL) return { valid: true, minDurationMs: null };
  const match = DURATION_PATTERN.exec(trimmed);
  if (match === null) return { valid: false };
  const amount = Number(match[1]);
  return { valid: true, minDurationMs: Math.round(match[2] === 's' ? amount * 1000 : amount) };
}
