const NANOS_PER_MS = 1_000_000;
const DAY_NANOS = 86_400_000 * NANOS_PER_MS;
const WEEK_NANOS = 7 * DAY_NANOS;
const UNIT_NANOS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1_000,
  µs: 1_000,
  μs: 1_000,
  ms: NANOS_PER_MS,
  s: 1_000 * NANOS_PER_MS,
  m: 60_000 * NANOS_PER_MS,
  h: 3_600_000 * NANOS_PER_MS,
  d: DAY_NANOS,
  w: WEEK_NANOS,
  y: 31_536_000_000 * NANOS_PER_MS,
};

/**
 * Go's duration syntax with days, weeks and years added (as Mission Control's templates read it): "1h30m", "7d",
 * "-2h45m", "1.5s". Returns nanoseconds, or null when the text is not a duration.
 */
export function parseGoDuration(text: string): number | null {
  const trimmed = text.trim();
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h|d|w|y))+$/.exec(trimmed);
  if (match === null) return trimmed === '0' ? 0 : null;
  let total = 0;
  for (const part of trimmed.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w|y)/g)) {
    total += Number(part[1]) * (UNIT_NANOS[part[2] ?? ''] ?? 0);
  }
  return match[1] === '-' ? -total : total;
}

function trimmedFixed(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, '');
}

/**
 * A duration given in nanoseconds as people read it: "250ms", "1.5s", "1h1m", "3d2h6m", "4w3d2h". Below a second the
 * unit shrinks so the leading digit is not zero; above a day minutes, above a week hours are the finest unit; zero
 * parts are left out.
 */
export function humanDuration(nanos: number): string {
  if (!Number.isFinite(nanos)) return String(nanos);
  const sign = nanos < 0 ? '-' : '';
  const n = Math.abs(Math.trunc(nanos));
  if (n === 0) return '0s';
  if (n < 1_000) return `${sign}${n}ns`;
  if (n < NANOS_PER_MS) return `${sign}${trimmedFixed(n / 1_000, 3)}µs`;
  if (n < 1_000 * NANOS_PER_MS) return `${sign}${trimmedFixed(n / NANOS_PER_MS, 3)}ms`;
  const parts: string[] = [];
  const push = (value: number, unit: string): void => {
    if (value > 0) parts.push(`${value}${unit}`);
  };
  const totalSeconds = n / (1_000 * NANOS_PER_MS);
  if (n > WEEK_NANOS) {
    const hours = Math.floor(totalSeconds / 3600);
    push(Math.floor(hours / 168), 'w');
    push(Math.floor((hours % 168) / 24), 'd');
    push(hours % 24, 'h');
  } else if (n > DAY_NANOS) {
    const minutes = Math.floor(totalSeconds / 60);
    push(Math.floor(minutes / 1440), 'd');
    push(Math.floor((minutes % 1440) / 60), 'h');
    push(minutes % 60, 'm');
  } else {
    const whole = Math.floor(totalSeconds);
    push(Math.floor(whole / 3600), 'h');
    push(Math.floor((whole % 3600) / 60), 'm');
    const seconds = totalSeconds - Math.floor(whole / 60) * 60;
    if (seconds > 0) parts.push(`${trimmedFixed(seconds, 3)}s`);
  }
  return `${sign}${parts.join('')}`;
}

const SIZE_UNITS = ['B', 'K', 'M', 'G', 'T', 'P', 'E'] as const;

/** A byte count in powers of 1024 with one decimal at most: 0B, 512B, 1.5K, 1M, 10G. */
export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'NaN';
  if (bytes === 0) return '0B';
  let value = Math.trunc(bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${trimmedFixed(value, 1)}${SIZE_UNITS[unit] ?? 'B'}`;
}
