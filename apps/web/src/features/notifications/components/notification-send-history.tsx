import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { formatDate, formatDuration, formatRelativeTime, isNotificationEvent, notificationResourcePath } from '@opsdeck/shared';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { SEND_HISTORY_LIMIT, useNotificationSendHistoryQuery } from '../api/get-notification-send-history';
import type { NotificationSendHistoryRow } from '../api/types';
import { recipientText } from '../readable';
import { SendStatusBadge } from './send-status-badge';

function recipientOf(row: NotificationSendHistoryRow): string {
  if (row.person !== null) return row.person.name;
  return row.recipient === null ? (row.person_id ?? '') : recipientText(row.recipient);
}

/** The resource by name, linked; a resource gone since is named by its kind and the start of its id. */
function ResourceLink({ row }: { row: NotificationSendHistoryRow }) {
  const { source_event: event, resource_id: id } = row;
  if (id === null) return null;
  const named = row.resource_name !== null;
  const label = named ? (row.resource_name ?? '') : `${event === null ? 'resource' : event.split('.')[0]} ${id.slice(0, 8)}`;
  const style = named ? 'break-words' : 'font-mono text-xs';
  if (event === null || !isNotificationEvent(event)) return <span className={`${style} text-gray-600`}>{label}</span>;
  return (
    <Link to={notificationResourcePath(event, id)} title={id} className={`${style} text-blue-700 hover:underline`}>
      {label}
    </Link>
  );
}

const COLUMNS: ColumnDef<NotificationSendHistoryRow>[] = [
  { id: 'status', header: 'Status', size: 100, cell: ({ row }) => <SendStatusBadge status={row.original.status} /> },
  { id: 'source_event', header: 'Event', size: 170, cell: ({ row }) => <span className="font-mono text-xs">{row.original.source_event ?? ''}</span> },
  {
    id: 'resource_id',
    header: 'Resource',
    size: 130,
    cell: ({ row }) => <ResourceLink row={row.original} />,
  },
  { id: 'recipient', header: 'Recipient', size: 140, cell: ({ row }) => recipientOf(row.original) },
  { id: 'attempts', header: 'Attempts', size: 90, accessorKey: 'attempts' },
  {
    id: 'duration_millis',
    header: 'Duration',
    size: 100,
    cell: ({ row }) => (row.original.duration_millis === null ? '' : formatDuration(row.original.duration_millis)),
  },
  {
    id: 'error',
    header: 'Error or Reason',
    size: 260,
    cell: ({ row }) =>
      row.original.error === null ? (
        <span className="block text-xs break-words whitespace-pre-wrap text-gray-600">{row.original.reason ?? ''}</span>
      ) : (
        <span className="block text-xs break-words whitespace-pre-wrap text-red-700">{row.original.error}</span>
      ),
  },
  {
    id: 'created_at',
    header: 'Time',
    size: 150,
    cell: ({ row }) => <time dateTime={row.original.created_at} title={formatDate(row.original.created_at)}>{formatRelativeTime(row.original.created_at)}</time>,
  },
];

/** The deliveries of one notification, newest first, with why each failed or was skipped. */
export function NotificationSendHistory({ notificationId }: { notificationId: string }) {
  const history = useNotificationSendHistoryQuery(notificationId);
  if (history.isError) return <QueryError subject="Delivery history" error={history.error} onRetry={() => void history.refetch()} />;
  const rows = history.data ?? [];
  return (
    <div className="flex flex-col gap-2">
      <DataTable
        label="Delivery history"
        columns={COLUMNS}
        data={rows}
        isLoading={history.isPending}
        emptyText="This notification has not been sent yet"
        getRowId={(row) => row.id}
        maxHeight="60vh"
      />
      {rows.length === SEND_HISTORY_LIMIT && <p className="text-xs text-gray-500">Showing the latest {SEND_HISTORY_LIMIT} deliveries.</p>}
    </div>
  );
}
