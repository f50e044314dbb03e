import { formatDuration, formatPercent, formatRelativeTime, isZeroDate } from '@opsdeck/shared';

/** Uptime percentage is passed / (passed + failed) * 100 (spec 001 §3); null without runs. */
export function uptimePercentage(uptime: { passed: number; failed: number }): number | null {
  const total = uptime.passed + uptime.failed;
  return total === 0 ? null : (uptime.passed / total) * 100;
}

/** An uptime as it is shown, to one decimal: 89.96 is shown, and coloured, as 90 %. */
export function roundedUptime(percentage: number): number {
  return Number(percentage.toFixed(1));
}

export function formatUptimePercentage(percentage: number): string {
  return formatPercent(roundedUptime(percentage));
}

export type ProgressColor = 'red' | 'orange' | 'green';

// orange-700, not 600: 600 on white is 3.6:1, below the 4.5:1 text needs (app/palette-contrast.test.tsx).
export const PROGRESS_TEXT_CLASSES: Record<ProgressColor, string> = { red: 'text-red-600', orange: 'text-orange-700', green: 'text-green-700' };

/** Progress colour thresholds 75 and 90 (spec 001 §9): below 75 red, below 90 orange, green from 90. */
export function progressColor(percentage: number): ProgressColor {
  if (percentage < 75) return 'red';
  if (percentage < 90) return 'orange';
  return 'green';
}

export function formatLatency(ms: number | null): string {
  return ms === null ? '' : formatDuration(ms);
}

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

/** The transition age is shown only between 1 hour and 7 days (spec 001 §9): fresher flips are noise, older ones settled. */
export function transitionAge(lastTransition: string | null, now: Date = new Date()): string {
  if (lastTransition === null || isZeroDate(lastTransition)) return '';
  const age = now.getTime() - new Date(lastTransition).getTime();
  return age >= HOUR_MS && age <= WEEK_MS ? formatRelativeTime(lastTransition, now) : '';
}

/** The Message cell of a history row: the run's message and its error, the error only once when a checker set both alike. */
export function historyMessage(message: string | null, error: string | null): string {
  const parts = [message, error].filter((part): part is string => part !== null && part !== '');
  return [...new Set(parts)].join(' — ');
}
