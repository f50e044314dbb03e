import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { CountBadge } from '@/components/count-badge/count-badge';
import { DataTable, type DataTableLayout, type DataTablePagination } from '@/components/data-table/data-table';
import { HealthDot } from '@/components/status/health-dot';
import type { SummarySortKey } from '../api/keys';
import { formatLatency, transitionAge, uptimePercentage } from '../utils/check-format';
import { GROUP_HEALTH_STATUS, groupLabel, type HealthRow } from './health-rows';
import { UptimeText } from './uptime-text';

export interface HealthChecksTableProps {
  rows: HealthRow[];
  isLoading: boolean;
  sortBy: SummarySortKey | null;
  sortDesc: boolean;
  onSortChange: (sortBy: SummarySortKey | null, sortDesc: boolean) => void;
  onToggleGroup: (key: string) => void;
  onOpenCheck: (checkId: string) => void;
  /** Given in the flat list: the page grows as the user scrolls to its end. */
  pagination?: DataTablePagination;
}

function rowId(row: HealthRow): string {
  return row.kind === 'group' ? `group:${row.group.key}` : row.check.id;
}

/** On a phone the check's name and health stay; each further column shows once there is room for it. */
const NARROW_LAYOUT: DataTableLayout = { grow: 'name', hideBelow: { uptime: 430, latency: 530, last_transition_time: 640 } };

function buildColumns(onToggleGroup: (key: string) => void): ColumnDef<HealthRow>[] {
  return [
    {
      id: 'name',
      header: 'Checks',
      // Sorting is done by the server; an accessor only makes the column sortable.
      accessorFn: (row) => (row.kind === 'group' ? row.group.key : row.check.name),
      size: 420,
      cell: ({ row: { original } }) => {
        if (original.kind === 'group') {
          const { group, expanded, loading } = original;
          const Icon = expanded ? ChevronDown : ChevronRight;
          return (
            <span className="flex items-center gap-1.5 font-medium">
              <button
                type="button"
                aria-expanded={expanded}
                aria-label={`${expanded ? 'Collapse' : 'Expand'} ${groupLabel(group.key)}`}
                className="inline-flex size-5 items-center justify-center rounded hover:bg-gray-200"
                onClick={(event) => {
                  event.stopPropagation();
                  onToggleGroup(group.key);
                }}
              >
                <Icon aria-hidden="true" className="size-4" />
              </button>
              <span className="truncate">{groupLabel(group.key)}</span>
              <CountBadge count={group.count} label="checks" />
              {loading && (
                <span role="status" className="text-xs font-normal text-gray-500">
                  Loading checks…
                </span>
              )}
            </span>
          );
        }
        const { check, grouped } = original;
        return (
          <span className={clsx('flex min-w-0 flex-col', grouped && 'pl-7')}>
            <span className="truncate" title={check.name}>
              {check.name}
            </span>
          </span>
        );
      },
    },
    {
      id: 'status',
      header: 'Health',
      accessorFn: (row) => (row.kind === 'group' ? row.group.health : row.check.health),
      size: 130,
      cell: ({ row: { original } }) => {
        if (original.kind === 'group') {
          const { group } = original;
          return (
            <span className="flex items-center gap-1.5">
              <HealthDot status={GROUP_HEALTH_STATUS[group.health]} />
              <span className="text-xs text-gray-600">
                {group.healthy}/{group.count}
              </span>
            </span>
          );
        }
        const { health } = original.check;
        return (
          <span className="flex items-center gap-1.5">
            <HealthDot status={health} />
            <span className="text-xs text-gray-600 capitalize">{health}</span>
          </span>
        );
      },
    },
    {
      id: 'uptime',
      header: 'Uptime',
      accessorFn: (row) => (row.kind === 'group' ? null : uptimePercentage(row.check.uptime)),
      size: 100,
      cell: ({ row: { original } }) => (original.kind === 'group' ? null : <UptimeText percentage={uptimePercentage(original.check.uptime)} empty="" />),
    },
    {
      id: 'latency',
      header: 'Latency',
      accessorFn: (row) => (row.kind === 'group' ? null : row.check.latency.p95),
      size: 100,
      cell: ({ row: { original } }) => (original.kind === 'group' ? null : formatLatency(original.check.latency.p95)),
    },
    {
      id: 'last_transition_time',
      header: 'Transition',
      accessorFn: (row) => (row.kind === 'group' ? null : row.check.last_transition_time),
      size: 110,
      cell: ({ row: { original } }) => (original.kind === 'group' ? null : transitionAge(original.check.last_transition_time)),
    },
  ];
}

/** Columns Checks, Health, Uptime, Latency, Transition (spec 001 §2.2), sorted by the server. */
export function HealthChecksTable({ rows, isLoading, sortBy, sortDesc, onSortChange, onToggleGroup, onOpenCheck, pagination }: HealthChecksTableProps) {
  const sorting: SortingState = sortBy === null ? [] : [{ id: sortBy, desc: sortDesc }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    onSortChange(first === undefined ? null : (first.id as SummarySortKey), first?.desc ?? false);
  };
  const handleRowClick = (row: HealthRow) => {
    if (row.kind === 'group') onToggleGroup(row.group.key);
    else onOpenCheck(row.check.id);
  };
  return (
    <DataTable
      label="Health checks"
      columns={buildColumns(onToggleGroup)}
      data={rows}
      isLoading={isLoading}
      getRowId={rowId}
      onRowClick={handleRowClick}
      sorting={{ sorting, onSortingChange: handleSortingChange }}
      pagination={pagination}
      growPageSize={pagination !== undefined}
      maxHeight="calc(100vh - 16rem)"
      emptyText="No data available"
      layout={NARROW_LAYOUT}
    />
  );
}
