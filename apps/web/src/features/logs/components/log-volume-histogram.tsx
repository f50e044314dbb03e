import { memo } from 'react';
import { clsx } from 'clsx';
import dayjs from 'dayjs';
import { LEVEL_BAR_CLASSES, LEVEL_NAMES, LOG_LEVELS, type LogLevel } from '../utils/log-levels';
import { levelsPresent, type LogVolume, type VolumeBucket } from '../utils/log-volume';

export interface LogVolumeHistogramProps {
  volume: LogVolume;
  /** The lines are the newest of more matches: the bars start at the oldest line loaded, not at the range's start. */
  partial: boolean;
}

const NO_LEVEL_CLASS = 'bg-gray-300';
const DAY_MS = 24 * 60 * 60_000;

type Slot = LogLevel | 'none';

function slotName(slot: Slot): string {
  return slot === 'none' ? 'No level' : LEVEL_NAMES[slot];
}

function slotClass(slot: Slot): string {
  return slot === 'none' ? NO_LEVEL_CLASS : LEVEL_BAR_CLASSES[slot];
}

function lines(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'line' : 'lines'}`;
}

/** `1 minute`, `5 seconds`, `2 hours`, `1 day`. */
export function stepText(stepMs: number): string {
  const units: ReadonlyArray<readonly [number, string]> = [
    [DAY_MS, 'day'],
    [60 * 60_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (stepMs >= size && stepMs % size === 0) {
      const count = stepMs / size;
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${Math.round(stepMs / 1000)} seconds`;
}

/** Times as precise as the bars are narrow, with the day once the range spans more than one. */
function timeFormatter(volume: LogVolume): (time: number) => string {
  const clock = volume.stepMs < 60_000 ? 'HH:mm:ss' : 'HH:mm';
  const format = volume.to - volume.from > DAY_MS ? `MMM D ${clock}` : clock;
  return (time) => dayjs(time).format(format);
}

function bucketTitle(bucket: VolumeBucket, format: (time: number) => string): string {
  const byLevel = [...LOG_LEVELS, 'none' as const]
    .filter((slot) => bucket.counts[slot] > 0)
    .map((slot) => `${bucket.counts[slot].toLocaleString()} ${slotName(slot).toLowerCase()}`);
  const detail = byLevel.length > 1 || (byLevel.length === 1 && bucket.counts.none === 0) ? ` (${byLevel.join(', ')})` : '';
  return `${format(bucket.start)}–${format(bucket.end)}: ${lines(bucket.total)}${detail}`;
}

/**
 * How many of the lines fall in each stretch of the time range, as a bar per stretch stacked by level, the way log
 * explorers show a stream's volume above its lines. It is drawn from the lines the page holds, so it matches the table
 * beneath it (label filters included). Screen readers get the summary; each bar's count is in its tooltip.
 */
export const LogVolumeHistogram = memo(function LogVolumeHistogram({ volume, partial }: LogVolumeHistogramProps) {
  const format = timeFormatter(volume);
  const present = levelsPresent(volume.totals);
  const peak = volume.buckets.reduce<VolumeBucket | null>((best, bucket) => (best === null || bucket.total > best.total ? bucket : best), null);
  const byLevel = present.map((slot) => `${volume.totals[slot].toLocaleString()} ${slotName(slot).toLowerCase()}`).join(', ');
  const summary = [
    `${lines(volume.counted)} from ${format(volume.from)} to ${format(volume.to)}, ${stepText(volume.stepMs)} per bar`,
    partial ? ', from the oldest line loaded' : '',
    peak !== null && peak.total > 0 ? `; most in ${format(peak.start)}–${format(peak.end)} (${lines(peak.total)})` : '',
    present.length > 1 || (present.length === 1 && present[0] !== 'none') ? `; ${byLevel}` : '',
    volume.untimed > 0 ? `; ${lines(volume.untimed)} without a time not shown` : '',
    '.',
  ].join('');
  const middle = volume.buckets[Math.floor(volume.buckets.length / 2)];
  return (
    <figure aria-label="Log volume" className="flex flex-col gap-1 rounded-md border border-gray-200 bg-white px-3 py-2">
      <figcaption className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600">
        <span className="font-medium text-gray-700">Log volume</span>
        <span aria-hidden="true">{stepText(volume.stepMs)} per bar</span>
        {present.length > 0 && (
          <ul aria-hidden="true" className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {present.map((slot) => (
              <li key={slot} className="flex items-center gap-1">
                <span className={clsx('inline-block size-2.5 rounded-sm', slotClass(slot))} />
                {slotName(slot)} {volume.totals[slot].toLocaleString()}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
      <div role="img" aria-label={`Log volume: ${summary}`} className="flex h-14 items-end gap-px border-b border-gray-200">
        {volume.buckets.map((bucket) => (
          <div
            key={bucket.start}
            data-testid="volume-bar"
            data-count={bucket.total}
            title={bucketTitle(bucket, format)}
            className="flex h-full min-w-0 flex-1 flex-col-reverse hover:bg-gray-100"
          >
            {[...LOG_LEVELS, 'none' as const].map((slot) =>
              bucket.counts[slot] > 0 ? (
                <span key={slot} className={clsx('block w-full', slotClass(slot))} style={{ height: `${(bucket.counts[slot] / Math.max(volume.max, 1)) * 100}%` }} />
              ) : null,
            )}
          </div>
        ))}
      </div>
      <div aria-hidden="true" className="flex justify-between font-mono text-[0.6875rem] text-gray-500">
        <span>{format(volume.from)}</span>
        {middle !== undefined && volume.buckets.length > 4 && <span className="hidden sm:inline">{format(middle.start)}</span>}
        <span>{format(volume.to)}</span>
      </div>
    </figure>
  );
});
