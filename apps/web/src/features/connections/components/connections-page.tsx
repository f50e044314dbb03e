import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ColumnDef, PaginationState } from '@tanstack/react-table';
import { Plus, RefreshCw } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, formatDate } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useConnectionsQuery } from '../api/get-connections';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import type { Connection, Person } from '../api/types';
import { connectionTypeDefinition } from '../connection-type-catalog';
import { ConnectionPanel } from './connection-panel';
import { useDocumentTitle } from '@/lib/use-document-title';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';

type PanelState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; connection: Connection };

function readPage(params: URLSearchParams): PaginationState {
  const pageIndex = Number(params.get('pageIndex') ?? '0');
  const pageSize = Number(params.get('pageSize') ?? String(DEFAULT_PAGE_SIZE));
  return {
    pageIndex: Number.isInteger(pageIndex) && pageIndex >= 0 ? pageIndex : 0,
    pageSize: Number.isInteger(pageSize) && pageSize > 0 ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

function columnsFor(people: ReadonlyMap<string, Person>): ColumnDef<Connection>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      size: 240,
      cell: ({ row }) => {
        const Icon = connectionTypeDefinition(row.original.type).icon;
        return (
          <span className="inline-flex items-center gap-2">
            <Icon aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
            <span className="truncate">{row.original.name}</span>
          </span>
        );
      },
    },
    { id: 'namespace', header: 'Namespace', accessorKey: 'namespace', size: 140 },
    { id: 'type', header: 'Type', size: 140, cell: ({ row }) => connectionTypeDefinition(row.original.type).label },
    {
      id: 'created_by',
      header: 'Created By',
      size: 180,
      cell: ({ row }) => {
        const person = row.original.created_by ? people.get(row.original.created_by) : undefined;
        if (!person) return null;
        return (
          <span className="inline-flex items-center gap-2">
            <Avatar name={person.name} src={person.avatar} size="sm" />
            <span className="truncate">{person.name}</span>
          </span>
        );
      },
    },
    { id: 'created_at', header: 'Created', size: 150, cell: ({ row }) => formatDate(row.original.created_at) },
    { id: 'updated_at', header: 'Updated', size: 150, cell: ({ row }) => formatDate(row.original.updated_at) },
  ];
}

/** /settings/connections (spec 002 §2.2): the connections table and the add/edit side panel. */
export function ConnectionsPage() {
  useDocumentTitle('Connections');
  const [searchParams, setSearchParams] = useSearchParams();
  const page = readPage(searchParams);
  const connections = useConnectionsQuery(page);
  const rows = useMemo(() => connections.data?.data ?? [], [connections.data]);
  const creatorIds = useMemo(() => [...new Set(rows.map((row) => row.created_by).filter((id): id is string => id !== null))].sort(), [rows]);
  const people = usePeopleByIdsQuery(creatorIds);
  const columns = useMemo(() => columnsFor(new Map((people.data ?? []).map((person) => [person.id, person]))), [people.data]);
  const { can } = usePermissions();
  const canWrite = can('connections', 'write');
  const [panel, setPanel] = useState<PanelState>({ mode: 'closed' });

  const handlePaginationChange = (next: PaginationState) => {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.set('pageIndex', String(next.pageIndex));
        params.set('pageSize', String(next.pageSize));
        return params;
      },
      { replace: true },
    );
  };

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <header className="flex items-center gap-2">
        <SettingsTrail title="Connections" />
        <Button variant="ghost" aria-label="Refresh" onClick={() => void connections.refetch()} disabled={connections.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {canWrite && (
          <Button variant="primary" aria-label="Add Connection" className="ml-auto" onClick={() => setPanel({ mode: 'add' })}>
            <Plus aria-hidden="true" className="size-4" />
          </Button>
        )}
      </header>
      {connections.isError ? (
        <QueryError subject="Connections" error={connections.error} onRetry={() => void connections.refetch()} />
      ) : (
        <DataTable
          label="Connections"
          columns={columns}
          data={rows}
          isLoading={connections.isPending}
          emptyText="No connections found"
          getRowId={(connection) => connection.id}
          onRowClick={canWrite ? (connection) => setPanel({ mode: 'edit', connection }) : undefined}
          pagination={{ ...page, totalCount: connections.data?.total ?? 0, onPaginationChange: handlePaginationChange }}
          preferenceKey="connections"
        />
      )}
      {panel.mode !== 'closed' && (
        <ConnectionPanel
          key={panel.mode === 'edit' ? panel.connection.id : 'new'}
          connection={panel.mode === 'edit' ? panel.connection : undefined}
          onClose={() => setPanel({ mode: 'closed' })}
        />
      )}
    </section>
  );
}
