import { useState } from 'react';
import { Link } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { ChevronRight, Inbox, Plus, RefreshCw } from 'lucide-react';
import { formatDate, formatDuration } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDemoInboxQuery } from '../api/demo-inbox';
import { useNotificationsSummaryQuery } from '../api/get-notifications-summary';
import type { NotificationSummaryRow } from '../api/types';
import { connectionName, isTemplated, notificationHeading } from '../readable';
import { MostCommonErrorCell } from './most-common-error-cell';
import { NotificationEditorDialog, type NotificationEditorMode } from './notification-editor-dialog';

/** Who a notification goes to, in words: the person, the team, or the names of its services and connections. */
export function recipientLabel(row: Pick<NotificationSummaryRow, 'person' | 'team' | 'person_id' | 'team_id' | 'custom_services'>): string {
  if (row.person !== null) return row.person.name;
  if (row.team !== null) return row.team.name;
  const services = row.custom_services ?? [];
  if (services.length > 0) return services.map((service) => (service.name === '' ? connectionName(service.connection) : service.name)).join(', ');
  return row.person_id ?? row.team_id ?? '';
}

/**
 * The list names a notification in words (notificationHeading); a title that is a template, filled in per message,
 * stays readable on hover and in the editor.
 */
function TitleCell({ row }: { row: NotificationSummaryRow }) {
  const heading = notificationHeading(row);
  return (
    <span className="block truncate font-medium text-gray-900" title={isTemplated(row.title) ? `Title template: ${row.title ?? ''}` : heading}>
      {heading}
    </span>
  );
}

function CountCell({ value, tone }: { value: number; tone?: string }) {
  return <span className={value > 0 ? tone : 'text-gray-500'}>{value}</span>;
}

const COLUMNS: ColumnDef<NotificationSummaryRow>[] = [
  {
    id: 'title',
    header: 'Title',
    size: 200,
    cell: ({ row }) => <TitleCell row={row.original} />,
  },
  {
    id: 'events',
    header: 'Events',
    size: 240,
    cell: ({ row }) => (
      <span className="flex flex-wrap gap-1">
        {row.original.events.map((event) => (
          <span key={event} className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-700">
            {event}
          </span>
        ))}
      </span>
    ),
  },
  { id: 'recipient', header: 'Recipient', size: 170, cell: ({ row }) => <span className="block truncate">{recipientLabel(row.original)}</span> },
  { id: 'pending', header: 'Pending', size: 90, cell: ({ row }) => <CountCell value={row.original.pending} tone="text-blue-700" /> },
  { id: 'failed', header: 'Failed', size: 80, cell: ({ row }) => <CountCell value={row.original.failed} tone="font-medium text-red-700" /> },
  { id: 'sent', header: 'Sent', size: 80, cell: ({ row }) => <CountCell value={row.original.sent} tone="text-green-700" /> },
  {
    id: 'avg_duration_ms',
    header: 'Avg Duration',
    size: 110,
    cell: ({ row }) => (row.original.avg_duration_ms === null ? '' : formatDuration(row.original.avg_duration_ms)),
  },
  { id: 'most_common_error', header: 'Most Common Error', size: 220, cell: ({ row }) => <MostCommonErrorCell error={row.original.most_common_error} /> },
  {
    id: 'created_by',
    header: 'Created By',
    size: 150,
    cell: ({ row }) =>
      row.original.creator === null ? null : (
        <span className="flex min-w-0 items-center gap-2">
          <Avatar name={row.original.creator.name} src={row.original.creator.avatar} size="sm" />
          <span className="truncate">{row.original.creator.name}</span>
        </span>
      ),
  },
  { id: 'created_at', header: 'Created', size: 150, cell: ({ row }) => formatDate(row.original.created_at) },
];

/** Settings › Notifications (spec 001 §2.7): who is told of which events, and how their deliveries went. */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const summary = useNotificationsSummaryQuery();
  const { can } = usePermissions();
  const canWrite = can('notifications', 'write');
  const [editor, setEditor] = useState<NotificationEditorMode | null>(null);
  const demoInbox = useDemoInboxQuery();

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <nav aria-label="Breadcrumb" className="mr-auto">
          <ol className="flex items-center gap-1 text-lg font-semibold text-gray-900">
            <li>
              {/* Spec 001 §2.7: the breadcrumb leads to the job history, the settings page notifications sit beside. */}
              <Link to="/settings/jobs" className="text-blue-700 hover:underline">
                Settings
              </Link>
            </li>
            <li aria-hidden="true">
              <ChevronRight className="size-4 text-gray-400" />
            </li>
            <li>
              <h1 aria-current="page">Notifications</h1>
            </li>
          </ol>
        </nav>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void summary.refetch()} disabled={summary.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {demoInbox.data?.enabled === true && (
          <Link
            to="/settings/notifications/inbox"
            className="inline-flex items-center gap-1.5 rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500"
          >
            <Inbox aria-hidden="true" className="size-4" />
            Demo inbox
          </Link>
        )}
        {canWrite && (
          <Button onClick={() => setEditor({ kind: 'create' })}>
            <Plus aria-hidden="true" className="size-4" />
            Add Notification
          </Button>
        )}
      </header>
      {summary.isError ? (
        <QueryError subject="Notifications" error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <DataTable
          label="Notifications"
          columns={COLUMNS}
          data={summary.data ?? []}
          isLoading={summary.isPending}
          emptyText="No notifications yet"
          getRowId={(row) => row.id}
          onRowClick={(row) => setEditor({ kind: 'edit', id: row.id })}
          preferenceKey="notifications"
        />
      )}
      {editor !== null && <NotificationEditorDialog mode={editor} canWrite={canWrite} onClose={() => setEditor(null)} />}
    </section>
  );
}
