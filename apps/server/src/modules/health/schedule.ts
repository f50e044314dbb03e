import { Cron } from 'croner';
import { parseDurationMs } from '@opsdeck/shared';

export const DEFAULT_SCHEDULE = '@every 5m';
/** Below this a schedule would keep a worker busy with one check; the spec's fastest choice is 30 s. */
const MIN_INTERVAL_MS = 1000;

export type Schedule = { kind: 'every'; intervalMs: number } | { kind: 'cron'; cron: Cron };

/** `@every 30s` / `@every 1h30m`, croner's nicknames (`@hourly`, `@daily`, `@weekly`…) and 5- or 6-field cron. */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  const every = /^@every\s+(.+)$/i.exec(trimmed);
  if (every !== null) {
    const intervalMs = parseDurationMs(every[1] ?? '');
    if (intervalMs === null || intervalMs < MIN_INTERVAL_MS) throw new Error(`Invalid schedule '${text}': the interval must be a duration of at least 1s`);
    return { kind: 'every', intervalMs };
  }
  try {
    return { kind: 'cron', cron: new Cron(trimmed, { paused: true }) };
  } catch (error) {
    throw new Error(`Invalid schedule '${text}': ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function isValidSchedule(text: string): boolean {
  try {
    parseSchedule(text);
    return true;
  } catch {
    return false;
  }
}

/** The next run strictly after `from`. */
export function nextRuntime(schedule: Schedule, from: Date): Date {
  if (schedule.kind === 'every') return new Date(from.getTime() + schedule.intervalMs);
  const next = schedule.cron.nextRun(from);
  // A cron with no future match (e.g. a date long past) parks the check a year out rather than spinning.
  return next ?? new Date(from.getTime() + 365 * 86_400_000);
}

/** The canary's own column wins over the spec's schedule, then the spec's interval in seconds, then the default. */
export function effectiveSchedule(column: string | null, spec: Record<string, unknown>): string {
  if (column !== null && column.trim() !== '') return column;
  if (typeof spec.schedule === 'string' && spec.schedule.trim() !== '') return spec.schedule;
  if (typeof spec.interval === 'number' && spec.interval > 0) return `@every ${spec.interval}s`;
  return DEFAULT_SCHEDULE;
}
