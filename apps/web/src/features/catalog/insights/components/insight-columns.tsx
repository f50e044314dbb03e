import { Link } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatRelativeTime } from '@opsdeck/shared';
import type { DataTableLayout } from '@/components/data-table/data-table';
import { SeverityBadge } from '@/components/status/severity-badge';
import type { InsightRow } from '../api/get-insights';
import { ConfigTypeMarker } from './config-type-marker';

function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatDate(at)}>
      {formatRelativeTime(at)}
    </time>
  );
}

/** The config an insight is about; the link opens it without also opening the row's detail panel. */
export function CatalogLink({ insight }: { insight: InsightRow }) {
  const deleted = insight.config_deleted_at !== null;
  return (
    <span className={deleted ? 'flex min-w-0 items-center gap-1.5 text-gray-500' : 'flex min-w-0 items-center gap-1.5'}>
      <ConfigTypeMarker type={insight.config_type} />
      <Link
        to={`/catalog/${insight.config_id}`}
        onClick={(event) => event.stopPropagation()}
        title={`${insight.config_name} (${insight.config_type})`}
        className="truncate text-blue-700 hover:underline"
      >
        {insight.config_name}
      </Link>
      {deleted && <span className="shrink-0 rounded bg-gray-200 px-1 text-xs font-medium text-gray-600">Deleted</span>}
    </span>
  );
}

const CATALOG_COLUMN: ColumnDef<InsightRow> = {
  id: 'config_name',
  accessorKey: 'config_name',
  header: 'Catalog',
  size: 240,
  cell: ({ row }) => <CatalogLink insight={row.original} />,
};

const OTHER_COLUMNS: ColumnDef<InsightRow>[] = [
  {
    id: 'analysis_type',
    accessorKey: 'analysis_type',
    header: 'Type',
    size: 130,
    cell: ({ row }) => <span title={row.original.summary ?? undefined}>{row.original.analysis_type}</span>,
  },
  { id: 'analyzer', accessorKey: 'analyzer', header: 'Analyzer', size: 180, cell: ({ row }) => <span title={row.original.summary ?? undefined}>{row.original.analyzer}</span> },
  { id: 'severity', accessorKey: 'severity', header: 'Severity', size: 100, cell: ({ row }) => (row.original.severity ? <SeverityBadge severity={row.original.severity} /> : null) },
  { id: 'status', accessorKey: 'status', header: 'Status', size: 100, cell: ({ row }) => <span className="capitalize">{row.original.status}</span> },
  { id: 'first_observed', accessorKey: 'first_observed', header: 'First Observed', size: 120, cell: ({ row }) => <When at={row.original.first_observed} /> },
  { id: 'last_observed', accessorKey: 'last_observed', header: 'Last Observed', size: 120, cell: ({ row }) => <When at={row.original.last_observed} /> },
];

/** Spec 002 §2.1: Catalog link, Type, Analyzer, Severity, Status, First Observed, Last Observed. */
export const GLOBAL_INSIGHT_COLUMNS: ColumnDef<InsightRow>[] = [CATALOG_COLUMN, ...OTHER_COLUMNS];

/** On a config's own tab every row is about that config, so the Catalog column would repeat its name. */
export const CONFIG_INSIGHT_COLUMNS: ColumnDef<InsightRow>[] = OTHER_COLUMNS;

/** On a phone the config, analyzer and severity stay; the rest show as room allows. */
export const GLOBAL_INSIGHT_LAYOUT: DataTableLayout = {
  grow: 'config_name',
  hideBelow: { analysis_type: 600, status: 700, first_observed: 820, last_observed: 920 },
};

export const CONFIG_INSIGHT_LAYOUT: DataTableLayout = {
  grow: 'analyzer',
  hideBelow: { status: 480, first_observed: 600, last_observed: 700 },
};
