import { useMemo, useRef } from 'react';
import { formatRelativeTime } from '@opsdeck/shared';
import { useWidth } from '@/components/data-table/use-width';
import { usePreference } from '@/lib/preferences/use-preference';
import { CountBadge } from '@/components/count-badge/count-badge';
import { HealthDot } from '@/components/status/health-dot';
import type { ConfigListItem } from '../api/types';
import { formatCost, isStale } from '../utils/catalog-format';
import { CatalogVirtualTable, type CatalogColumn, type CatalogTableSort } from './catalog-virtual-table';
import { ColumnChooser, NO_COLUMN_CHOICE, parseColumnChoice } from './column-chooser';
import { CostCell } from './cost-cell';

function KeyValues({ values }: { values: Record<string, string> | null }) {
  const entries = Object.entries(values ?? {});
  const text = entries.map(([key, value]) => `${key}=${value}`).join(', ');
  return (
    <span className="flex gap-1 overflow-hidden" title={text}>
      {entries.map(([key, value]) => (
        <span key={key} className="shrink-0 rounded bg-gray-100 px-1 text-xs text-gray-700">
          {key}={value}
        </span>
      ))}
    </span>
  );
}

/** The namespace and cluster of an item, which tell same-named items apart (three `cart` Deployments; #34 item 11). */
export function itemPlace(tags: Record<string, string> | null): string | null {
  const place = [tags?.namespace, tags?.cluster].filter((part): part is string => typeof part === 'string' && part !== '');
  return place.length === 0 ? null : place.join(' · ');
}

function NameCell({ item }: { item: ConfigListItem }) {
  const stale = item.deleted_at === null && isStale(item.last_scraped_time);
  const place = itemPlace(item.tags);
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      <span className="truncate" title={place === null ? item.name : `${item.name} (${place})`}>
        {item.name}
      </span>
      {place !== null && <span className="max-w-[45%] shrink truncate text-xs text-gray-500">{place}</span>}
      {item.deleted_at !== null && (
        <span className="shrink-0 rounded bg-gray-200 px-1 text-xs font-medium text-gray-600" title={`Deleted ${formatRelativeTime(item.deleted_at)} ago`}>
          Deleted
        </span>
      )}
      {stale && item.last_scraped_time !== null && (
        <span className="shrink-0 rounded bg-amber-100 px-1 text-xs font-medium text-amber-800" title={`Last scraped ${formatRelativeTime(item.last_scraped_time)} ago`}>
          Stale
        </span>
      )}
    </span>
  );
}

function analysisTotal(item: ConfigListItem): number {
  return Object.values(item.analysis ?? {}).reduce((sum, count) => sum + count, 0);
}

const columns: CatalogColumn<ConfigListItem>[] = [
  { id: 'name', header: 'Name', width: 320, sortable: true, cell: (item) => <NameCell item={item} /> },
  { id: 'type', header: 'Type', width: 170, sortable: true, hideBelow: 480, cell: (item) => <span title={item.type}>{item.type}</span> },
  { id: 'status', header: 'Status', width: 100, sortable: true, hideBelow: 760, cell: (item) => item.status },
  {
    id: 'health',
    header: 'Health',
    width: 100,
    sortable: true,
    hideBelow: 300,
    cell: (item) =>
      item.health === null ? null : (
        <span className="flex items-center gap-1.5">
          <HealthDot status={item.health} />
          <span className="text-xs capitalize">{item.health}</span>
        </span>
      ),
  },
  { id: 'labels', header: 'Labels', width: 220, hideBelow: 1650, cell: (item) => <KeyValues values={item.labels} /> },
  { id: 'tags', header: 'Tags', width: 200, hideBelow: 1100, cell: (item) => <KeyValues values={item.tags} /> },
  {
    id: 'changes',
    header: 'Changes',
    width: 80,
    hideBelow: 640,
    cell: (item) => (item.changes > 0 ? <CountBadge count={item.changes} label="changes" /> : null),
  },
  {
    id: 'analysis',
    header: 'Insights',
    width: 80,
    hideBelow: 860,
    cell: (item) => {
      const total = analysisTotal(item);
      return total > 0 ? <CountBadge count={total} label="insights" /> : null;
    },
  },
  {
    id: 'cost_total_1d',
    header: 'Cost (1d)',
    width: 130,
    sortable: true,
    hideBelow: 1250,
    cell: (item) => <CostCell cost={item.cost_total_1d} cost1d={item.cost_total_1d} cost30d={item.cost_total_30d} />,
  },
  { id: 'cost_total_7d', header: 'Cost (7d)', width: 100, sortable: true, hideBelow: 1450, cell: (item) => formatCost(item.cost_total_7d) },
  { id: 'cost_total_30d', header: 'Cost (30d)', width: 100, sortable: true, hideBelow: 960, cell: (item) => formatCost(item.cost_total_30d) },
  { id: 'agent', header: 'Agent', width: 120, hideBelow: 1800, cell: (item) => item.agent?.name ?? '' },
  { id: 'created_at', header: 'Created', width: 80, sortable: true, hideBelow: 1350, cell: (item) => formatRelativeTime(item.created_at) },
  {
    id: 'updated_at',
    header: 'Updated',
    width: 80,
    sortable: true,
    hideBelow: 1000,
    cell: (item) => (item.updated_at === null ? '' : formatRelativeTime(item.updated_at)),
  },
];

export interface CatalogFlatTableProps {
  rows: readonly ConfigListItem[];
  isLoading: boolean;
  sort: CatalogTableSort;
  onOpen: (item: ConfigListItem) => void;
  onEndReached: () => void;
}

/** The preference that keeps the column choice (columns on or off at every width). */
export const CATALOG_COLUMNS_KEY = 'catalog.table.columns';

/**
 * The config items themselves (spec 002 §2.1); deleted ones greyed and marked, stale ones flagged. All of spec 002's
 * columns are there; the narrower the table the fewer show, and Columns turns any on or off (#34 item 23).
 */
export function CatalogFlatTable({ rows, isLoading, sort, onOpen, onEndReached }: CatalogFlatTableProps) {
  const [stored, setStored] = usePreference(CATALOG_COLUMNS_KEY, '');
  const choice = useMemo(() => parseColumnChoice(stored), [stored]);
  const frame = useRef<HTMLDivElement>(null);
  const width = useWidth(frame);
  // A column chosen on shows at every width; one chosen off is left out; the rest keep their hideBelow.
  const chosen = useMemo(
    () => columns.filter((column) => !choice.hidden.includes(column.id)).map((column) => (choice.shown.includes(column.id) ? { ...column, hideBelow: undefined } : column)),
    [choice],
  );
  const optional = columns.filter((column) => column.id !== 'name');
  return (
    <div ref={frame} className="flex min-h-0 flex-1 flex-col gap-1">
      <div className="flex justify-end">
        <ColumnChooser columns={optional} choice={choice} width={width} onChange={(next) => setStored(next === NO_COLUMN_CHOICE ? null : JSON.stringify(next))} />
      </div>
      <CatalogVirtualTable
      label="Catalog items"
      columns={chosen}
      rows={rows}
      getRowId={(item) => item.id}
      onRowClick={onOpen}
      isLoading={isLoading}
      emptyText="No catalog items match these filters"
      grow="name"
      sort={sort}
      rowClassName={(item) => (item.deleted_at === null ? 'text-gray-800' : 'text-gray-500')}
      onEndReached={onEndReached}
    />
    </div>
  );
}
