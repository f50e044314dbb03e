import type { ReactNode } from 'react';
import { formatDate, formatRelativeTime, isZeroDate } from '@opsdeck/shared';
import { SeverityBadge } from '@/components/status/severity-badge';
import type { CheckDetail } from '../api/types';
import { formatLatency } from '../utils/check-format';
import { UptimeText } from './uptime-text';

export interface CheckStatTilesProps {
  detail: CheckDetail;
  /** The Time Range selector, shown as the last tile. */
  rangeControl: ReactNode;
  now?: Date;
}

function Tile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="flex min-w-28 flex-col gap-0.5 rounded-md border border-gray-200 px-3 py-2">
      <span className="text-xs text-gray-500">{label}</span>
      <span className="text-sm font-medium text-gray-900">{children}</span>
    </div>
  );
}

function when(value: string | null, now: Date): ReactNode {
  if (value === null || isZeroDate(value)) return '–';
  const future = new Date(value).getTime() > now.getTime();
  const relative = formatRelativeTime(value, now);
  return <time dateTime={value} title={formatDate(value)}>{future ? `in ${relative}` : `${relative} ago`}</time>;
}

/** Uptime with passed and failed, latency 95/97/99%, severity, last run, transitioned, next run (spec 001 §2.3). */
export function CheckStatTiles({ detail, rangeControl, now = new Date() }: CheckStatTilesProps) {
  const { uptime, latency, check } = detail;
  return (
    <div className="flex flex-wrap items-stretch gap-2">
      <Tile label="Uptime">
        <UptimeText percentage={uptime.percentage} />
        <span className="ml-2 text-xs font-normal">
          <span className="text-green-700">{uptime.passed} passed</span> <span className="text-red-600">{uptime.failed} failed</span>
        </span>
      </Tile>
      <Tile label="Latency 95%">{formatLatency(latency.p95) || '–'}</Tile>
      <Tile label="Latency 97%">{formatLatency(latency.p97) || '–'}</Tile>
      <Tile label="Latency 99%">{formatLatency(latency.p99) || '–'}</Tile>
      <Tile label="Severity">{check.severity ? <SeverityBadge severity={check.severity} /> : '–'}</Tile>
      <Tile label="Last Run">{when(check.last_runtime, now)}</Tile>
      <Tile label="Transitioned">{when(check.last_transition_time, now)}</Tile>
      <Tile label="Next Run">{when(check.next_runtime, now)}</Tile>
      <div className="ml-auto flex flex-col justify-center gap-0.5">
        <span className="text-xs text-gray-500">Time Range</span>
        {rangeControl}
      </div>
    </div>
  );
}
