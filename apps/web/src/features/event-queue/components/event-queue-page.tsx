import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { RefreshCw, RotateCcw } from 'lucide-react';
import { formatDate } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useEventQueueSummaryQuery } from '../api/get-event-queue-summary';
import { useRetryEvents } from '../api/retry-events';
import type { EventQueueSummaryRow } from '../api/types';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';

const rowId = (row: EventQueueSummaryRow): string => `${row.name}\u0000${row.consumer ?? ''}`;

function RetryButton({ row }: { row: EventQueueSummaryRow }) {
  const retry = useRetryEvents();
  return (
    <Button
      variant="secondary"
      className="px-2 py-1 text-xs"
      aria-label={`Retry ${row.name}`}
      isPending={retry.isPending}
      onClick={(event) => {
        // The row itself opens the error dialog.
        event.stopPropagation();
        retry.mutate({ name: row.name, consumer: row.consumer });
      }}
    >
      <RotateCcw aria-hidden="true" className="size-3.5" />
      Retry
    </Button>
  );
}

function columnsFor(canRetry: boolean): ColumnDef<EventQueueSummaryRow>[] {
  const columns: ColumnDef<EventQueueSummaryRow>[] = [
    {
      id: 'name',
      header: 'Name',
      size: 260,
      cell: ({ row }) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-medium text-gray-900">{row.original.name}</span>
          {row.original.consumer !== null && <span className="truncate text-xs text-gray-500">{row.original.consumer}</span>}
        </span>
      ),
    },
    { id: 'pending', header: 'Pending Count', accessorKey: 'pending', size: 120 },
    {
      id: 'failed',
      header: 'Error Count',
      size: 110,
      cell: ({ row }) => <span className={row.original.failed > 0 ? 'font-medium text-red-700' : undefined}>{row.original.failed}</span>,
    },
    { id: 'average_attempts', header: 'Average Attempts', size: 140, cell: ({ row }) => row.original.average_attempts ?? '' },
    { id: 'first_failure', header: 'First Failed At', size: 160, cell: ({ row }) => formatDate(row.original.first_failure) },
    { id: 'last_failure', header: 'Last Failed At', size: 160, cell: ({ row }) => formatDate(row.original.last_failure) },
  ];
  if (canRetry) {
    columns.push({ id: 'retry', header: '', size: 100, cell: ({ row }) => (row.original.failed > 0 ? <RetryButton row={row.original} /> : null) });
  }
  return columns;
}

/** Settings › Event Queue (spec 002 §2.2): per event name, what waits and what failed; failures can be run again. */
export function EventQueuePage() {
  useDocumentTitle('Event Queue');
  const summary = useEventQueueSummaryQuery();
  const { can } = usePermissions();
  const canRetry = can('database', 'write');
  const columns = useMemo(() => columnsFor(canRetry), [canRetry]);
  const [errorRow, setErrorRow] = useState<EventQueueSummaryRow | null>(null);

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <SettingsTrail title="Event Queue" />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void summary.refetch()} disabled={summary.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
      </header>
      {summary.isError ? (
        <QueryError subject="Event queue" error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <DataTable
          label="Event queue"
          columns={columns}
          data={summary.data ?? []}
          isLoading={summary.isPending}
          emptyText="No events are waiting or failed"
          getRowId={rowId}
          onRowClick={(row) => {
            if (row.most_common_error !== null) setErrorRow(row);
          }}
          preferenceKey="event-queue"
        />
      )}
      {errorRow !== null && (
        <Dialog
          open
          onOpenChange={(open) => {
            if (!open) setErrorRow(null);
          }}
          title={`Most Common Error for ${errorRow.name}`}
          size="small"
        >
          <pre className="max-h-[60vh] overflow-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-3 text-sm text-gray-800">
            {errorRow.most_common_error}
          </pre>
        </Dialog>
      )}
    </section>
  );
}
