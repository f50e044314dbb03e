import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatDuration } from '@opsdeck/shared';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { useJobHistoryQuery } from '../api/get-job-history';

const columns: ColumnDef<JobHistoryEntry>[] = [
  { id: 'name', header: 'Job', accessorKey: 'name', size: 200 },
  { id: 'status', header: 'Status', accessorKey: 'status', size: 110 },
  { id: 'time_start', header: 'Started', size: 160, cell: ({ row }) => formatDate(row.original.time_start) },
  {
    id: 'duration',
    header: 'Duration',
    size: 110,
    cell: ({ row }) => (row.original.duration_millis === null ? '' : formatDuration(row.original.duration_millis)),
  },
  { id: 'success_count', header: 'Success', accessorKey: 'success_count', size: 90 },
  { id: 'error_count', header: 'Errors', accessorKey: 'error_count', size: 90 },
];

export interface JobHistoryTabProps {
  resourceId: string;
}

export function JobHistoryTab({ resourceId }: JobHistoryTabProps) {
  const history = useJobHistoryQuery(resourceId);
  if (history.isError) {
    return <QueryError subject="Job history" error={history.error} onRetry={() => void history.refetch()} />;
  }
  return <DataTable label="Job history" columns={columns} data={history.data ?? []} isLoading={history.isPending} emptyText="No job history found" getRowId={(entry) => entry.id} />;
}
