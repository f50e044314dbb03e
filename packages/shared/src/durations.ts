/** Milliseconds per unit of the Go-style durations canary specs and schedules write ('500ms', '1h30m', '2d'). */
export const DURATION_UNIT_MS = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;

export type DurationUnit = keyof typeof DURATION_UNIT_MS;

function isDurationUnit(text: string): text is DurationUnit {
  return Object.hasOwn(DURATION_UNIT_MS, text);
}

const PLAIN_NUMBER = /^\d+(\.\d+)?$/;
// 'ms' before 'm' and 's', so '500ms' is one part and not 500 minutes followed by an 's'.
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;

/**
 * A duration as canary specs write it: one or more amount-unit parts ('30s', '1h30m'), or a bare number of
 * milliseconds. Null for anything else, so callers can name the field that is wrong.
 */
export function parseDurationMs(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const text = value.trim();
  if (PLAIN_NUMBER.test(text)) return Number(text);
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = DURATION_PART.exec(text); match !== null; match = DURATION_PART.exec(text)) {
    const unit = match[2] ?? '';
    if (!isDurationUnit(unit)) return null;
    total += Number(match[1]) * DURATION_UNIT_MS[unit];
    consumed = DURATION_PART.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : null;
}

/**
 * One amount with one of `units` and nothing else ('1.5s', '100ms'): the short forms a filter box accepts. Null for
 * a bare number, a compound duration or another unit.
 */
export function parseSingleDurationMs(text: string, units: readonly DurationUnit[]): number | null {
  const match = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(text.trim());
  const unit = match?.[2] ?? '';
  if (match === null || !isDurationUnit(unit) || !units.includes(unit)) return null;
  return Number(match[1]) * DURATION_UNIT_MS[unit];
}

/** Up to one decimal, trailing zeros dropped: 1.50 → '1.5', 2.00 → '2'. */
function oneDecimal(value: number): string {
  return String(Number(value.toFixed(1)));
}

/** Under 1 s in ms, under 1 min in s, under 1 h in m, otherwise h (spec 000 §9). */
export function formatDuration(milliseconds: number): string {
  const ms = Math.max(0, milliseconds);
  if (ms < DURATION_UNIT_MS.s) return `${Math.round(ms)}ms`;
  if (ms < DURATION_UNIT_MS.m) return `${oneDecimal(ms / DURATION_UNIT_MS.s)}s`;
  if (ms < DURATION_UNIT_MS.h) return `${oneDecimal(ms / DURATION_UNIT_MS.m)}m`;
  return `${oneDecimal(ms / DURATION_UNIT_MS.h)}h`;
}

const WHOLE_UNITS: readonly DurationUnit[] = ['d', 'h', 'm', 's'];

/** Whole units from days down to seconds, e.g. '1d 2h 5m'; under a second it is given in ms. */
export function formatDurationUnits(milliseconds: number): string {
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < DURATION_UNIT_MS.s) return `${ms}ms`;
  let rest = ms;
  const parts: string[] = [];
  for (const unit of WHOLE_UNITS) {
    const amount = Math.floor(rest / DURATION_UNIT_MS[unit]);
    rest -= amount * DURATION_UNIT_MS[unit];
    if (amount > 0) parts.push(`${amount}${unit}`);
  }
  return parts.join(' ');
}
