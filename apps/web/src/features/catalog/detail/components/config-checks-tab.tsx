import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { formatDate, formatPercent, formatRelativeTime } from '@opsdeck/shared';
import { DataTable, type DataTableLayout } from '@/components/data-table/data-table';
import { HealthDot } from '@/components/status/health-dot';
import { QueryError } from '@/components/status/query-error';
import { useConfigChecksQuery, type ConfigCheck } from '../api/get-config-checks';

function When({ at }: { at: string | null }) {
  if (at === null) return null;
  return (
    <time dateTime={at} title={formatDate(at)}>
      {formatRelativeTime(at)} ago
    </time>
  );
}

function uptimeText(uptime: ConfigCheck['uptime']): string {
  if (uptime === null) return '';
  const runs = uptime.passed + uptime.failed;
  return runs === 0 ? '' : formatPercent(uptime.passed / runs);
}

const COLUMNS: ColumnDef<ConfigCheck>[] = [
  {
    id: 'name',
    header: 'Name',
    size: 240,
    cell: ({ row }) => (
      // The health page opens a check's detail from its checkId parameter.
      <Link to={`/health?checkId=${encodeURIComponent(row.original.id)}`} className="font-medium text-blue-700 hover:underline">
        {row.original.name}
      </Link>
    ),
  },
  { id: 'type', header: 'Type', size: 110, cell: ({ row }) => row.original.type },
  {
    id: 'status',
    header: 'Health',
    size: 110,
    cell: ({ row }) => (
      <span className="flex items-center gap-1.5">
        <HealthDot status={row.original.status} />
        {row.original.status ?? 'unknown'}
      </span>
    ),
  },
  { id: 'uptime', header: 'Uptime (24h)', size: 110, cell: ({ row }) => uptimeText(row.original.uptime) },
  {
    id: 'latency',
    header: 'Latency p95',
    size: 110,
    cell: ({ row }) => (row.original.latency?.p95 === null || row.original.latency?.p95 === undefined ? '' : `${Math.round(row.original.latency.p95)} ms`),
  },
  { id: 'last_runtime', header: 'Last run', size: 120, cell: ({ row }) => <When at={row.original.last_runtime} /> },
  { id: 'last_transition_time', header: 'Last transition', size: 130, cell: ({ row }) => <When at={row.original.last_transition_time} /> },
];

const LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { type: 520, uptime: 640, latency: 760, last_transition_time: 900 } };

/** The Checks tab: the health checks linked to this item, from check_summary_for_config. */
export function ConfigChecksTab({ configId }: { configId: string }) {
  const checks = useConfigChecksQuery(configId);
  if (checks.isError) return <QueryError subject="Checks" error={checks.error} onRetry={() => void checks.refetch()} />;
  return (
    <DataTable
      label="Health checks"
      columns={COLUMNS}
      data={checks.data ?? []}
      isLoading={checks.isPending}
      emptyText="No health checks are linked to this item"
      getRowId={(check) => check.id}
      layout={LAYOUT}
    />
  );
}
