import { CHECK_HEALTHS, formatRelativeTime, parseGroupKey, type CatalogSummaryRow } from '@opsdeck/shared';
import { CountBadge } from '@/components/count-badge/count-badge';
import { HealthDot } from '@/components/status/health-dot';
import { groupHeader } from '../utils/catalog-format';
import { CatalogVirtualTable, type CatalogColumn, type CatalogTableSort } from './catalog-virtual-table';
import { CostCell } from './cost-cell';

/** The value a summary row holds for one groupBy entry; null when its items lack it. */
export function groupValue(row: CatalogSummaryRow, entry: string): string | null {
  const key = parseGroupKey(entry);
  if (key === null) return null;
  switch (key.kind) {
    case 'tag':
      return row.tags[key.key] ?? null;
    case 'label':
      return row.labels[key.key] ?? null;
    case 'column':
      // The health column holds the group's counts per health; the grouped value comes back as health_group.
      return (key.column === 'health' ? row.health_group : row[key.column]) ?? null;
  }
}

function analysisTotal(row: CatalogSummaryRow): number {
  return Object.values(row.analysis).reduce((sum, count) => sum + count, 0);
}

function buildColumns(groupBy: readonly string[]): CatalogColumn<CatalogSummaryRow>[] {
  const groups: CatalogColumn<CatalogSummaryRow>[] = groupBy.map((entry, index) => ({
    id: entry,
    header: groupHeader(entry),
    width: 200,
    sortable: true,
    // On a phone the last grouping stays (type in the default class, type), as it tells the rows apart.
    hideBelow: index === groupBy.length - 1 ? undefined : 500,
    cell: (row) => {
      const value = groupValue(row, entry);
      return value === null ? <span className="text-gray-500 italic">none</span> : <span title={value}>{value}</span>;
    },
  }));
  return [
    ...groups,
    {
      id: 'count',
      header: 'Count',
      width: 120,
      sortable: true,
      cell: (row) => (
        <span className="flex items-center gap-1.5">
          <CountBadge count={row.count} label="items" />
          {row.deleted > 0 && <span className="text-xs text-gray-500">{row.deleted} deleted</span>}
        </span>
      ),
    },
    {
      id: 'health',
      header: 'Health',
      width: 180,
      hideBelow: 560,
      cell: (row) => (
        <span className="flex items-center gap-2">
          {CHECK_HEALTHS.filter((health) => row.health[health] > 0).map((health) => (
            <span key={health} className="inline-flex items-center gap-1 text-xs text-gray-600" title={`${row.health[health]} ${health}`}>
              <HealthDot status={health} />
              {row.health[health]}
            </span>
          ))}
        </span>
      ),
    },
    {
      id: 'changes',
      header: 'Changes',
      width: 90,
      sortable: true,
      hideBelow: 800,
      cell: (row) => (row.changes > 0 ? <CountBadge count={row.changes} label="changes" /> : null),
    },
    {
      id: 'analysis',
      header: 'Insights',
      width: 90,
      hideBelow: 900,
      cell: (row) => {
        const total = analysisTotal(row);
        return total > 0 ? <CountBadge count={total} label="insights" /> : null;
      },
    },
    {
      id: 'cost',
      header: 'Cost (30d)',
      width: 140,
      sortable: true,
      hideBelow: 1040,
      cell: (row) => <CostCell cost={row.cost_total_30d} cost1d={row.cost_total_1d} cost30d={row.cost_total_30d} />,
    },
    {
      id: 'updated_at',
      header: 'Updated',
      width: 90,
      sortable: true,
      hideBelow: 1110,
      cell: (row) => formatRelativeTime(row.updated_at),
    },
  ];
}

export interface CatalogSummaryTableProps {
  rows: readonly CatalogSummaryRow[];
  groupBy: readonly string[];
  isLoading: boolean;
  sort: CatalogTableSort;
  onOpenGroup: (row: CatalogSummaryRow) => void;
}

/** One row per group of items (spec 002 §2.1); a click narrows the catalog to that group. */
export function CatalogSummaryTable({ rows, groupBy, isLoading, sort, onOpenGroup }: CatalogSummaryTableProps) {
  return (
    <CatalogVirtualTable
      label="Catalog summary"
      columns={buildColumns(groupBy)}
      rows={rows}
      getRowId={(row) => JSON.stringify(groupBy.map((entry) => groupValue(row, entry)))}
      onRowClick={onOpenGroup}
      isLoading={isLoading}
      emptyText="No catalog items match these filters"
      grow={groupBy[groupBy.length - 1] ?? 'count'}
      sort={sort}
    />
  );
}
