import { formatDurationUnits } from '@opsdeck/shared';

/** Start to end; a run or action still going counts to now. Empty before it starts. */
export function runDuration(start: string | null, end: string | null, now: number = Date.now()): string {
  if (start === null) return '';
  const until = end === null ? now : Date.parse(end);
  return formatDurationUnits(Math.max(0, until - Date.parse(start)));
}

/**
 * How long the run waited for a worker: from when it was due (its scheduled time, which a delay or an approval moves
 * past its creation) to its start; still counting while it has not started.
 */
export function runQueued(run: { created_at: string; scheduled_time: string; start_time: string | null }, now: number = Date.now()): string {
  const due = Math.max(Date.parse(run.created_at), Date.parse(run.scheduled_time));
  const started = run.start_time === null ? now : Date.parse(run.start_time);
  return formatDurationUnits(Math.max(0, started - due));
}
