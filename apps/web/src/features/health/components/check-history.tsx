import { useEffect, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatDuration, formatRelativeTime, type TimeRangeKey } from '@opsdeck/shared';
import { DataTable } from '@/components/data-table/data-table';
import { Pagination } from '@/components/data-table/pagination';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { HealthDot } from '@/components/status/health-dot';
import { QueryError } from '@/components/status/query-error';
import { HISTORY_PAGE_SIZE, useCheckHistoryQuery } from '../api/get-check-history';
import type { HistoryStatusFilter } from '../api/keys';
import type { CheckStatusEntry } from '../api/types';
import { DurationFilterInput } from './duration-filter-input';
import { historyMessage } from '../utils/check-format';

export interface CheckHistoryProps {
  checkId: string;
  range: TimeRangeKey;
  /** When a Run Now was accepted; the history polls until a run at or after it shows up. */
  awaitingRunSince: Date | null;
  onRunRecorded: () => void;
}

const AWAIT_POLL_MS = 2000;
const PAGE_SIZES = [HISTORY_PAGE_SIZE] as const;

const STATUS_OPTIONS: DropdownOption<HistoryStatusFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'healthy', label: 'Healthy' },
  { value: 'unhealthy', label: 'Unhealthy' },
];

const columns: ColumnDef<CheckStatusEntry>[] = [
  {
    id: 'time',
    header: 'Time',
    size: 190,
    cell: ({ row }) => (
      <time dateTime={row.original.time} title={`${formatRelativeTime(row.original.time)} ago`}>
        {formatDate(row.original.time)}
      </time>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    size: 110,
    cell: ({ row }) => {
      const status = row.original.status ? 'healthy' : 'unhealthy';
      return (
        <span className="flex items-center gap-1.5">
          <HealthDot status={status} />
          <span className="text-xs capitalize">{status}</span>
        </span>
      );
    },
  },
  { id: 'duration', header: 'Duration', size: 100, cell: ({ row }) => (row.original.duration === null ? '' : formatDuration(row.original.duration)) },
  {
    id: 'message',
    header: 'Message',
    size: 480,
    cell: ({ row }) => {
      const text = historyMessage(row.original.message, row.original.error);
      return <span title={text}>{text}</span>;
    },
  },
];

/** The status history of a check, newest first, paged at 50, filtered by status and minimum duration. */
export function CheckHistory({ checkId, range, awaitingRunSince, onRunRecorded }: CheckHistoryProps) {
  const [status, setStatus] = useState<HistoryStatusFilter>('all');
  const [minDurationMs, setMinDurationMs] = useState<number | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const history = useCheckHistoryQuery(
    { checkId, range, status, minDurationMs, pageIndex },
    { refetchIntervalMs: awaitingRunSince === null ? false : AWAIT_POLL_MS },
  );
  const newest = history.data?.rows[0]?.time;

  useEffect(() => {
    // The run is stamped by the server's clock; a second of slack keeps a browser clock running ahead from missing it.
    if (awaitingRunSince !== null && newest !== undefined && new Date(newest).getTime() >= awaitingRunSince.getTime() - 1000) onRunRecorded();
  }, [awaitingRunSince, newest, onRunRecorded]);

  const changeFilter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPageIndex(0);
  };

  return (
    <section aria-label="History" className="flex min-h-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Status
          <Dropdown label="Status" options={STATUS_OPTIONS} value={status} onChange={changeFilter(setStatus)} />
        </label>
        <DurationFilterInput onChange={changeFilter(setMinDurationMs)} />
      </div>
      {history.isError ? (
        <QueryError error={history.error} onRetry={() => void history.refetch()} />
      ) : (
        <DataTable
          label="Check history"
          columns={columns}
          data={history.data?.rows ?? []}
          isLoading={history.isPending}
          getRowId={(row) => row.time}
          maxHeight="50vh"
          emptyText="No data available"
        />
      )}
      {history.data !== undefined && history.data.totalEntries > 0 && (
        <Pagination
          pageIndex={pageIndex}
          pageSize={HISTORY_PAGE_SIZE}
          totalCount={history.data.totalEntries}
          pageSizeOptions={PAGE_SIZES}
          onPageChange={setPageIndex}
          onPageSizeChange={() => setPageIndex(0)}
        />
      )}
    </section>
  );
}
