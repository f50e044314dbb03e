import type { ColumnDef } from '@tanstack/react-table';
import { useNavigate } from 'react-router';
import { DataTable } from '@/components/data-table/data-table';
import type { CheckDetail } from '../api/types';

export interface RelationshipRow {
  id: string;
  name: string;
  type: 'Config' | 'Component';
}

export function relationshipRows(relationships: CheckDetail['relationships']): RelationshipRow[] {
  return [
    ...relationships.configs.map((config): RelationshipRow => ({ id: config.id, name: config.name, type: 'Config' })),
    ...relationships.components.map((component): RelationshipRow => ({ id: component.id, name: component.name, type: 'Component' })),
  ];
}

const columns: ColumnDef<RelationshipRow>[] = [
  { id: 'name', header: 'Name', size: 400, cell: ({ row }) => row.original.name },
  { id: 'type', header: 'Type', size: 140, cell: ({ row }) => row.original.type },
];

/** Configs and components the check is related to; a row leads to its catalog or topology page. */
export function CheckRelationships({ rows }: { rows: RelationshipRow[] }) {
  const navigate = useNavigate();
  return (
    <DataTable
      label="Relationships"
      columns={columns}
      data={rows}
      getRowId={(row) => `${row.type}:${row.id}`}
      onRowClick={(row) => void navigate(row.type === 'Config' ? `/catalog/${row.id}` : `/topology/${row.id}`)}
      maxHeight="50vh"
      emptyText="No data available"
    />
  );
}
