import { useState, type FormEvent } from 'react';
import { Popover } from 'radix-ui';
import { clsx } from 'clsx';
import dayjs from 'dayjs';
import { CalendarClock, ChevronDown } from 'lucide-react';
import {
  MAPPED_TIME_RANGES,
  TIME_RANGE_KEYS,
  formatDate,
  relativeTimeRange,
  timeRangeKeyLabel,
  timeRangeLabel,
  type AbsoluteTimeRange,
  type RelativeTimeRange,
  type TimeRange,
  type TimeRangeKey,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { useRecentTimeRanges } from './recent-time-ranges';

export interface RelativeRangeOption {
  range: RelativeTimeRange;
  label: string;
}

interface TimeRangePickerBaseProps {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  showMapped?: boolean;
  showAbsolute?: boolean;
  className?: string;
}

/** The relative choices come either from time-range keys or, for lengths that are not keys, as a labelled list. */
export type TimeRangePickerProps = TimeRangePickerBaseProps &
  (
    | {
        /** All of spec 000 §9 by default. */
        keys?: readonly TimeRangeKey[];
        relativeRanges?: never;
      }
    | {
        /** Offered in this order, each under its own label, which also names the chosen range on the trigger. */
        relativeRanges: readonly RelativeRangeOption[];
        keys?: never;
      }
  );

export function describeTimeRange(range: TimeRange): string {
  if (range.type === 'absolute') return `${formatDate(range.from)} – ${formatDate(range.to)}`;
  return timeRangeLabel(range);
}

function isSameRange(a: TimeRange, b: TimeRange): boolean {
  if (a.type === 'relative' && b.type === 'relative') return a.range === b.range;
  if (a.type === 'mapped' && b.type === 'mapped') return a.from === b.from && a.to === b.to;
  if (a.type === 'absolute' && b.type === 'absolute') return a.from === b.from && a.to === b.to;
  return false;
}

const OPTION = 'w-full rounded px-2 py-1 text-left text-sm hover:bg-gray-100 aria-[current=true]:bg-blue-50 aria-[current=true]:text-blue-700';

function keyOption(key: TimeRangeKey): RelativeRangeOption {
  return { range: relativeTimeRange(key), label: timeRangeKeyLabel(key) };
}

export function TimeRangePicker({ value, onChange, keys = TIME_RANGE_KEYS, relativeRanges, showMapped = true, showAbsolute = true, className }: TimeRangePickerProps) {
  const relativeOptions = relativeRanges ?? keys.map(keyOption);
  // timeRangeLabel knows only keys, so a range such as now-5m is named by the option that offered it.
  const description = relativeOptions.find((option) => isSameRange(option.range, value))?.label ?? describeTimeRange(value);
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { recent, remember } = useRecentTimeRanges();

  const choose = (range: TimeRange) => {
    onChange(range);
    setOpen(false);
  };

  const handleAbsoluteSubmit = (event: FormEvent) => {
    event.preventDefault();
    // datetime-local inputs hold local wall-clock times; the range keeps them as UTC instants.
    const range: AbsoluteTimeRange = { type: 'absolute', from: dayjs(from).toISOString(), to: dayjs(to).toISOString() };
    remember(range);
    choose(range);
  };

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={`Time range: ${description}`}
        className={clsx(
          'inline-flex h-8 items-center gap-1.5 rounded-md bg-white px-2.5 text-sm text-gray-700 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500',
          className,
        )}
      >
        <CalendarClock aria-hidden="true" className="size-4 text-gray-500" />
        {description}
        <ChevronDown aria-hidden="true" className="size-4 text-gray-500" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="end" sideOffset={4} className="z-50 flex max-h-[70vh] gap-3 overflow-auto rounded-md bg-white p-3 shadow-lg ring-1 ring-gray-200">
          {showAbsolute && (
            <section aria-label="Absolute time range" className="flex w-60 flex-col gap-2">
              <h3 className="text-xs font-semibold text-gray-500 uppercase">Absolute</h3>
              <form onSubmit={handleAbsoluteSubmit} className="flex flex-col gap-2">
                <label className="flex flex-col gap-1 text-sm">
                  From
                  <input type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} className="rounded-md px-2 py-1 ring-1 ring-gray-300" />
                </label>
                <label className="flex flex-col gap-1 text-sm">
                  To
                  <input type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} className="rounded-md px-2 py-1 ring-1 ring-gray-300" />
                </label>
                <Button type="submit" disabled={from === '' || to === ''}>
                  Submit
                </Button>
              </form>
              {recent.length > 0 && (
                <div aria-label="Recent time ranges" role="group" className="flex flex-col">
                  <h3 className="mt-2 text-xs font-semibold text-gray-500 uppercase">Recently used</h3>
                  {recent.map((range) => (
                    <button key={`${range.from}/${range.to}`} type="button" className={OPTION} onClick={() => choose(range)}>
                      {describeTimeRange(range)}
                    </button>
                  ))}
                </div>
              )}
            </section>
          )}
          {showMapped && (
            <section aria-label="Quick ranges" className="flex w-44 flex-col">
              <h3 className="text-xs font-semibold text-gray-500 uppercase">Quick ranges</h3>
              {MAPPED_TIME_RANGES.map((range) => (
                <button key={range.display} type="button" aria-current={isSameRange(range, value)} className={OPTION} onClick={() => choose(range)}>
                  {range.display}
                </button>
              ))}
            </section>
          )}
          <section aria-label="Relative time ranges" className="flex w-40 flex-col">
            <h3 className="text-xs font-semibold text-gray-500 uppercase">Relative</h3>
            {relativeOptions.map(({ range, label }) => (
              <button key={range.range} type="button" aria-current={isSameRange(range, value)} className={OPTION} onClick={() => choose(range)}>
                {label}
              </button>
            ))}
          </section>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
