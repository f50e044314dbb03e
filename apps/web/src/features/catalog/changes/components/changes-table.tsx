import { createContext, useContext, useMemo, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { CATALOG_CHANGES_PAGE_SIZE, formatDate, formatRelativeTime, type CatalogChange, type CatalogChangesResponse } from '@opsdeck/shared';
import { CountBadge } from '@/components/count-badge/count-badge';
import { DataTable, type DataTableLayout, type DataTableSorting } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { SeverityBadge } from '@/components/status/severity-badge';
import { usePeopleByIdsQuery } from '@/lib/api/people';
import type { SearchUpdate } from '../../utils/use-search-update';
import { ChangeDetailPanel } from './change-detail-panel';

function When({ at }: { at: string }) {
  return <time dateTime={at} title={formatDate(at)}>{formatRelativeTime(at)}</time>;
}

/**
 * Creator names arrive after the rows; a context hands them to the cells so the column definitions stay the same
 * objects, since new cell renderers would remount every row.
 */
const CreatorNames = createContext<ReadonlyMap<string, string>>(new Map());

function CreatedBy({ change }: { change: CatalogChange }) {
  const names = useContext(CreatorNames);
  return (change.created_by === null ? undefined : names.get(change.created_by)) ?? change.external_created_by;
}

const COLUMNS: ColumnDef<CatalogChange>[] = [
  { id: 'created_at', accessorKey: 'created_at', header: 'Last observed', size: 100, cell: ({ row }) => <When at={row.original.created_at} /> },
  {
    id: 'name',
    accessorKey: 'name',
    header: 'Config',
    size: 220,
    cell: ({ row }) => (
      <span className={row.original.config_deleted_at ? 'text-gray-500' : undefined}>
        <span className="font-medium">{row.original.name}</span> <span className="text-xs text-gray-500">{row.original.type}</span>
        {row.original.config_deleted_at && <span className="ml-1 rounded bg-gray-100 px-1 text-xs text-gray-600">deleted</span>}
      </span>
    ),
  },
  { id: 'change_type', accessorKey: 'change_type', header: 'Change', size: 140, cell: ({ row }) => row.original.change_type },
  { id: 'summary', accessorKey: 'summary', header: 'Summary', size: 320, cell: ({ row }) => <span title={row.original.summary ?? undefined}>{row.original.summary}</span> },
  { id: 'severity', accessorKey: 'severity', header: 'Severity', size: 100, cell: ({ row }) => (row.original.severity ? <SeverityBadge severity={row.original.severity} /> : null) },
  { id: 'source', accessorKey: 'source', header: 'Source', size: 120, cell: ({ row }) => row.original.source },
  { id: 'count', accessorKey: 'count', header: 'Count', size: 80, cell: ({ row }) => <CountBadge count={row.original.count} label="sightings" /> },
  { id: 'first_observed', accessorKey: 'first_observed', header: 'First observed', size: 110, cell: ({ row }) => <When at={row.original.first_observed} /> },
  {
    id: 'created_by',
    accessorKey: 'created_by',
    header: 'Created by',
    size: 140,
    cell: ({ row }) => <CreatedBy change={row.original} />,
  },
];

/**
 * On a phone the config and change type stay; each further column shows once there is room for it beside the others
 * and the summary's 200 px.
 */
const LAYOUT: DataTableLayout = {
  grow: 'summary',
  hideBelow: { summary: 560, created_at: 660, severity: 760, count: 840, first_observed: 950, source: 1070, created_by: 1210 },
};

export interface ChangesTableProps {
  changes: UseQueryResult<CatalogChangesResponse>;
  page: number;
  pageSize: number;
  /** Writes `page` and `pageSize` to the URL; the default first page and size leave it. */
  update: SearchUpdate;
  emptyText: string;
  preferenceKey: string;
  sorting?: DataTableSorting;
}

/** A server-paged page of changes with their creators' names, opening a change's detail on a click. */
export function ChangesTable({ changes, page, pageSize, update, emptyText, preferenceKey, sorting }: ChangesTableProps) {
  const [selected, setSelected] = useState<CatalogChange | null>(null);
  const rows = changes.data?.changes;
  const creatorIds = useMemo(() => [...new Set((rows ?? []).flatMap((change) => (change.created_by ? [change.created_by] : [])))].sort(), [rows]);
  const creators = usePeopleByIdsQuery(creatorIds);
  const creatorNames = useMemo(() => new Map((creators.data ?? []).map((person) => [person.id, person.name])), [creators.data]);

  return (
    <>
      <CreatorNames.Provider value={creatorNames}>
        {changes.isError ? (
          <QueryError subject="Changes" error={changes.error} onRetry={() => void changes.refetch()} />
        ) : (
          <DataTable
            label="Config changes"
            columns={COLUMNS}
            data={rows ?? []}
            isLoading={changes.isPending}
            emptyText={emptyText}
            getRowId={(change) => change.id}
            onRowClick={setSelected}
            pagination={{
              pageIndex: page - 1,
              pageSize,
              totalCount: changes.data?.total ?? 0,
              onPaginationChange: (next) =>
                update({ page: next.pageIndex === 0 ? null : String(next.pageIndex + 1), pageSize: next.pageSize === CATALOG_CHANGES_PAGE_SIZE ? null : String(next.pageSize) }),
            }}
            sorting={sorting}
            layout={LAYOUT}
            preferenceKey={preferenceKey}
          />
        )}
      </CreatorNames.Provider>
      {selected && <ChangeDetailPanel change={selected} createdByName={selected.created_by === null ? null : (creatorNames.get(selected.created_by) ?? null)} onClose={() => setSelected(null)} />}
    </>
  );
}
