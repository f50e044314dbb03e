import { useRef } from 'react';
import { clsx } from 'clsx';
import { useScrollRegion } from '@/lib/use-scroll-region';
import { formatDate, isZeroDate } from '@opsdeck/shared';
import type { LogLine } from '../api/types';

/** Local date and time to the second, since log lines a second apart matter; a value that is no date shows as sent. */
export function formatLogTimestamp(timestamp: string): string {
  if (isZeroDate(timestamp)) return timestamp;
  return formatDate(timestamp, 'datetime-seconds');
}

function LineContent({ line }: { line: LogLine }) {
  if (typeof line === 'string') return <span className="min-w-0 break-all whitespace-pre-wrap">{line}</span>;
  return (
    <>
      {line.timestamp !== undefined && (
        <time dateTime={line.timestamp} className="shrink-0 text-gray-300">
          {formatLogTimestamp(line.timestamp)}
        </time>
      )}
      <span className="min-w-0 break-all whitespace-pre-wrap">{line.message}</span>
      {Object.entries(line.labels).map(([name, value]) => (
        <span key={name} className="rounded bg-gray-700 px-1 text-[0.625rem] text-gray-200">
          {name}={String(value)}
        </span>
      ))}
    </>
  );
}

/** The lines a log or config evidence kept, the selected ones highlighted; log lines show time, message and labels. */
export function EvidenceLines({ lines, selected }: { lines: readonly LogLine[]; selected: readonly number[] }) {
  const box = useRef<HTMLOListElement>(null);
  const region = useScrollRegion(box, 'Evidence lines');
  if (lines.length === 0) return null;
  const isSelected = new Set(selected);
  return (
    // A list keeps its role: only the Tab stop is taken from the scroll region (its name is the list's).
    <ol ref={box} tabIndex={region.tabIndex} aria-label="Evidence lines" className="palette-light mt-1 max-h-40 overflow-auto rounded bg-gray-900 p-2 dark:bg-gray-950 font-mono text-xs text-gray-100">
      {lines.map((line, index) => (
        <li
          key={index}
          data-selected={isSelected.has(index) || undefined}
          className={clsx('flex flex-wrap items-baseline gap-x-2', isSelected.has(index) && 'bg-yellow-700/60')}
        >
          {isSelected.has(index) && <span className="sr-only">Selected:</span>}
          <LineContent line={line} />
        </li>
      ))}
    </ol>
  );
}
