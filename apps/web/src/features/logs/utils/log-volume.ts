import type { LogLine } from '@opsdeck/shared';
import { LOG_LEVELS, lineLevel, type LogLevel } from './log-levels';

/** A bar's lines by level; `none` counts lines that carry no level. */
export type LevelCounts = Record<LogLevel | 'none', number>;

export interface VolumeBucket {
  /** Milliseconds since the epoch: the bucket holds lines from `start` up to, not including, `end`. */
  start: number;
  end: number;
  total: number;
  counts: LevelCounts;
}

export interface LogVolume {
  buckets: VolumeBucket[];
  stepMs: number;
  from: number;
  to: number;
  /** Lines with a time, all in some bucket. */
  counted: number;
  /** Lines without a time (or with one that is no date): in no bucket. */
  untimed: number;
  /** The largest bucket's total, the height every bar is drawn against. */
  max: number;
  totals: LevelCounts;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Bar widths a person reads at a glance, shortest first. */
export const VOLUME_STEPS_MS: readonly number[] = [
  SECOND, 5 * SECOND, 10 * SECOND, 30 * SECOND, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE,
  HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 30 * DAY,
];
/** Bars at most: about one per 6 px at 390 px, and enough to see a spike in an hour at one minute per bar. */
export const VOLUME_MAX_BUCKETS = 60;

export function emptyCounts(): LevelCounts {
  return { error: 0, warn: 0, info: 0, debug: 0, other: 0, none: 0 };
}

/** The shortest step from VOLUME_STEPS_MS that covers `span` in at most `maxBuckets` bars. */
export function volumeStep(span: number, maxBuckets = VOLUME_MAX_BUCKETS): number {
  return VOLUME_STEPS_MS.find((step) => span / step <= maxBuckets) ?? Math.ceil(span / maxBuckets);
}

/**
 * The lines counted per time bucket and level over `from`…`to`. Buckets start at whole multiples of the step (a
 * minute bar starts on the minute), so the bars of two answers line up. A line a little outside the range (a clock
 * ahead of the server's) is counted in the nearest bar rather than dropped, so the bars add up to the lines shown.
 */
export function logVolume(lines: readonly Pick<LogLine, 'timestamp' | 'labels'>[], from: number, to: number, maxBuckets = VOLUME_MAX_BUCKETS): LogVolume {
  const end = Math.max(to, from + 1);
  const stepMs = volumeStep(end - from, maxBuckets);
  const first = Math.floor(from / stepMs) * stepMs;
  const count = Math.max(1, Math.ceil((end - first) / stepMs));
  const buckets: VolumeBucket[] = Array.from({ length: count }, (_, index) => ({
    start: first + index * stepMs,
    end: first + (index + 1) * stepMs,
    total: 0,
    counts: emptyCounts(),
  }));
  const totals = emptyCounts();
  let untimed = 0;
  for (const line of lines) {
    const time = line.timestamp === null ? Number.NaN : Date.parse(line.timestamp);
    if (Number.isNaN(time)) {
      untimed += 1;
      continue;
    }
    const index = Math.min(count - 1, Math.max(0, Math.floor((time - first) / stepMs)));
    const bucket = buckets[index];
    if (bucket === undefined) continue;
    const level = lineLevel(line) ?? 'none';
    bucket.counts[level] += 1;
    bucket.total += 1;
    totals[level] += 1;
  }
  const counted = lines.length - untimed;
  const max = buckets.reduce((largest, bucket) => Math.max(largest, bucket.total), 0);
  return { buckets, stepMs, from: first, to: end, counted, untimed, max, totals };
}

/** The levels a volume has lines of, most severe first, then `none`. */
export function levelsPresent(totals: LevelCounts): Array<LogLevel | 'none'> {
  return [...LOG_LEVELS, 'none' as const].filter((level) => totals[level] > 0);
}
