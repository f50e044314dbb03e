import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatDuration } from '@opsdeck/shared';
import { JobStatusText } from '@/components/job-status/job-status-cell';
import { FailedCountCell } from './failed-count-cell';
import type { JobHistoryEntry } from './job-history-entry';

function timeCell(value: string | null) {
  return value === null ? null : (
    <time dateTime={value} title={formatDate(value, 'datetime-seconds')}>
      {formatDate(value)}
    </time>
  );
}

/**
 * The columns both the Job History page and a resource's Job History tab show; ids and accessors are the
 * job_histories columns they sort by (a column sorts only with an accessor).
 */
export const jobRunColumns: ColumnDef<JobHistoryEntry>[] = [
  { id: 'status', accessorKey: 'status', header: 'Status', size: 100, cell: ({ row }) => <JobStatusText status={row.original.status} /> },
  { id: 'time_start', accessorKey: 'time_start', header: 'Started', size: 170, cell: ({ row }) => timeCell(row.original.time_start) },
  {
    id: 'duration_millis',
    accessorKey: 'duration_millis',
    header: 'Duration',
    size: 100,
    cell: ({ row }) => (row.original.duration_millis === null ? '' : formatDuration(row.original.duration_millis)),
  },
  { id: 'success_count', accessorKey: 'success_count', header: 'Success', size: 90, cell: ({ row }) => row.original.success_count ?? 0 },
  { id: 'error_count', accessorKey: 'error_count', header: 'Failed', size: 90, cell: ({ row }) => <FailedCountCell entry={row.original} /> },
  { id: 'created_at', accessorKey: 'created_at', header: 'Created At', size: 170, cell: ({ row }) => timeCell(row.original.created_at) },
];

export const jobNameColumn: ColumnDef<JobHistoryEntry> = { id: 'name', accessorKey: 'name', header: 'Name', size: 200, cell: ({ row }) => <span className="font-medium">{row.original.name}</span> };
