import { useMemo } from 'react';
import { Link } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { Unlink } from 'lucide-react';
import { Button } from '@/components/button/button';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { HealthDot } from '@/components/status/health-dot';
import type { RelatedConfig } from '../api/types';
import { relationLabel } from './relationship-label';

export interface RelationshipsTableProps {
  items: readonly RelatedConfig[];
  isLoading: boolean;
  /** Rows one step away linked by hand; others have no unlink button. Empty for a user who may not write. */
  unlinkableIds: ReadonlySet<string>;
  onUnlink: (item: RelatedConfig) => void;
}

const LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { depth: 560, status: 700, relation: 820 } };

export function RelationshipsTable({ items, isLoading, unlinkableIds, onUnlink }: RelationshipsTableProps) {
  const columns = useMemo<ColumnDef<RelatedConfig>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        size: 260,
        cell: ({ row }) => (
          <span className={row.original.deleted_at ? 'text-gray-500' : undefined}>
            <Link to={`/catalog/${row.original.id}`} className="font-medium text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500">
              {row.original.name}
            </Link>
            {row.original.deleted_at && <span className="ml-1 rounded bg-gray-100 px-1 text-xs text-gray-600">deleted</span>}
          </span>
        ),
      },
      { id: 'type', header: 'Type', size: 200, cell: ({ row }) => row.original.type },
      { id: 'relation', header: 'Relation', size: 220, cell: ({ row }) => relationLabel(row.original) },
      { id: 'depth', header: 'Depth', size: 70, cell: ({ row }) => row.original.depth },
      {
        id: 'health',
        header: 'Health',
        size: 110,
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1.5">
            <HealthDot status={row.original.health} />
            {row.original.health ?? 'unknown'}
          </span>
        ),
      },
      { id: 'status', header: 'Status', size: 120, cell: ({ row }) => row.original.status },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        size: 56,
        cell: ({ row }) =>
          unlinkableIds.has(row.original.id) ? (
            <Button variant="ghost" aria-label={`Unlink ${row.original.name}`} title="Unlink" onClick={() => onUnlink(row.original)}>
              <Unlink aria-hidden="true" className="size-4" />
            </Button>
          ) : null,
      },
    ],
    [unlinkableIds, onUnlink],
  );

  return (
    <DataTable
      label="Related configs"
      columns={columns}
      data={items}
      isLoading={isLoading}
      emptyText="No related configs match these filters"
      getRowId={(item) => item.id}
      layout={LAYOUT}
      maxHeight="70vh"
    />
  );
}
