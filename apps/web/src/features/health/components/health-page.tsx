import { useCallback, useMemo, useState } from 'react';
import { LayoutGrid, SlidersHorizontal, Table2, X } from 'lucide-react';
import { TIME_RANGE_KEYS, TIME_RANGE_MINUTES, relativeTimeRange, tristateToQueryFilter, decodeTristate, isTimeRangeKey, type TimeRange } from '@opsdeck/shared';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { QueryError } from '@/components/status/query-error';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { useHealthSummaryQuery } from '../api/get-health-summary';
import type { HealthSummaryParams } from '../api/keys';
import type { HealthSummary } from '../api/types';
import { ALL_TAB, NO_GROUPING, groupByOptions, tabByOptions } from '../utils/grouping';
import { buildPivotMatrix, NO_PIVOT, parsePivotOption, PIVOT_CELL_OPTIONS, pivotByOptions, pivotOptionValue, type PivotCellType } from '../utils/pivot';
import { useRefreshRate } from '../utils/refresh-rate';
import { useHealthPageParams, type HealthLayout } from '../utils/use-health-page-params';
import { CheckDetailModal } from './check-detail-modal';
import { HealthCheckCards } from './health-check-cards';
import { HealthChecksTable } from './health-checks-table';
import { HealthFilterPanel } from './health-filter-panel';
import { HealthPivotTable } from './health-pivot-table';
import { buildHealthRows } from './health-rows';
import { HealthTabs } from './health-tabs';
import { RefreshRateControl } from './refresh-rate-control';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Shown before the first answer; the page never reads the time range the server echoes. */
const EMPTY_SUMMARY: Omit<HealthSummary, 'timeRange'> = {
  checks_summary: [],
  totalEntries: 0,
  counts: { total: 0, healthy: 0, unhealthy: 0, warning: 0, unknown: 0 },
  tabs: [],
  groups: [],
  labels: {},
};

const LAYOUTS: { value: HealthLayout; label: string; icon: typeof Table2 }[] = [
  { value: 'table', label: 'Table', icon: Table2 },
  { value: 'card', label: 'Cards', icon: LayoutGrid },
];

/** The health dashboard (spec 001 §2.2): filtering, grouping and counting happen on the server. */
export function HealthPage() {
  useDocumentTitle('Health');
  const { params, update } = useHealthPageParams();
  const rangeMinutes = TIME_RANGE_MINUTES[params.timeRange];
  const refresh = useRefreshRate(rangeMinutes);
  const [expanded, setExpanded] = useState<{ groupBy: string; keys: ReadonlySet<string> }>({ groupBy: params.groupBy, keys: new Set() });
  // On a phone the filters fold behind one button, so the first screen shows checks rather than filters (#34 item 15).
  const [filtersOpen, setFiltersOpen] = useState(false);
  const foldedOnPhone = filtersOpen ? '' : 'max-md:hidden';
  const activeFilters = (params.hidePassing ? 1 : 0) + Object.keys(decodeTristate(params.labels)).length + (params.groupBy !== NO_GROUPING ? 1 : 0) + (params.pivotBy !== NO_PIVOT ? 1 : 0);
  const expandedKeys = useMemo(() => (expanded.groupBy === params.groupBy ? expanded.keys : new Set<string>()), [expanded, params.groupBy]);

  const groupBy = params.groupBy === NO_GROUPING ? null : params.groupBy;
  const pivotBy = params.pivotBy === 'none' ? null : params.pivotBy;
  const summaryParams: HealthSummaryParams = useMemo(
    () => ({
      timeRange: params.timeRange,
      query: params.query,
      labels: tristateToQueryFilter(decodeTristate(params.labels)),
      hidePassing: params.hidePassing,
      statuses: params.status,
      // The pivot places checks itself and needs no group counts.
      groupBy: pivotBy === null ? groupBy : null,
      tabBy: params.tabBy,
      tab: params.tab,
      sortBy: params.sortBy,
      sortDesc: params.sortDesc,
      pageIndex: groupBy === null && pivotBy === null ? params.pageIndex : 0,
      // Grouped rows and the pivot need every matching check; the flat list grows page by page as it scrolls.
      pageSize: groupBy === null && pivotBy === null ? params.pageSize : null,
      // The grouped table shows checks under open groups only, so it asks for theirs; cards and the pivot show all.
      groups: groupBy !== null && pivotBy === null && params.layout !== 'card' ? [...expandedKeys].sort() : null,
    }),
    [params, groupBy, pivotBy, expandedKeys],
  );
  const summary = useHealthSummaryQuery(summaryParams, { refreshIntervalMs: refresh.intervalMs });
  const data = summary.data ?? EMPTY_SUMMARY;
  const isLoading = summary.isPending;
  const labelKeys = Object.keys(data.labels);
  // data.counts are per health before the status filters; a tab counts the rows it shows.
  const tabs = data.tabs.length > 0 ? data.tabs : [{ key: ALL_TAB, count: data.totalEntries }];
  const matrix = useMemo(
    () => (pivotBy === null ? null : buildPivotMatrix(data.checks_summary, pivotBy, params.pivotLabel, groupBy)),
    [data.checks_summary, pivotBy, params.pivotLabel, groupBy],
  );

  const handleToggleGroup = (key: string) => {
    const next = new Set(expandedKeys);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setExpanded({ groupBy: params.groupBy, keys: next });
  };
  const handleOpenCheck = useCallback((checkId: string) => update({ checkId }), [update]);
  const handlePivotBy = (value: string) => {
    const next = parsePivotOption(value);
    update({ pivotBy: next.pivotBy, pivotLabel: next.pivotLabel });
  };
  const handleTimeRange = (range: TimeRange) => {
    if (range.type !== 'relative') return;
    const key = range.range.replace(/^now-/, '');
    if (isTimeRangeKey(key)) update({ timeRange: key });
  };
  const growPage = (pageSize: number) => update({ pageSize: String(pageSize), pageIndex: null }, { replace: true });

  const openCheck = params.checkId === null ? undefined : data.checks_summary.find((check) => check.id === params.checkId);

  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-4">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-lg font-semibold text-gray-900">Health</h1>
        {!isLoading && (
          <p className="text-sm text-gray-600" aria-live="polite">
            {data.counts.healthy} healthy, {data.counts.unhealthy} unhealthy
            {data.counts.warning > 0 ? `, ${data.counts.warning} warning` : ''}
            {data.counts.unknown > 0 ? `, ${data.counts.unknown} unknown` : ''}
          </p>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Layout" className="inline-flex rounded-md ring-1 ring-gray-300">
            {LAYOUTS.map(({ value, label, icon: Icon }) => (
              <button
                key={value}
                type="button"
                aria-pressed={params.layout === value}
                onClick={() => update({ layout: value })}
                className="inline-flex h-8 items-center gap-1 px-2.5 text-sm text-gray-700 first:rounded-l-md last:rounded-r-md hover:bg-gray-50 aria-pressed:bg-blue-50 aria-pressed:text-blue-700"
              >
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </button>
            ))}
          </div>
          <TimeRangePicker value={relativeTimeRange(params.timeRange)} onChange={handleTimeRange} keys={TIME_RANGE_KEYS} showMapped={false} showAbsolute={false} />
          <RefreshRateControl rate={refresh.rate} onChange={refresh.setRate} rangeMinutes={rangeMinutes} />
        </div>
      </header>
      <div className="flex min-h-0 flex-1 flex-col gap-4 xl:flex-row">
        <div className={`${foldedOnPhone} xl:contents`}>
        <HealthFilterPanel
          hidePassing={params.hidePassing}
          onHidePassingChange={(hidePassing) => update({ hidePassing: String(hidePassing), pageSize: null })}
          labels={data.labels}
          labelSelection={params.labels}
          onLabelSelectionChange={(labels) => update({ labels, pageSize: null })}
        />
        </div>
        <section aria-label="Checks" className="flex min-w-0 flex-1 flex-col">
          <FilterBar label="Check search and grouping">
            <SearchInput value={params.query} onChange={(query) => update({ query, pageSize: null })} placeholder="Search by name, description, or endpoint" />
            <button
              type="button"
              aria-expanded={filtersOpen}
              onClick={() => setFiltersOpen((open) => !open)}
              className="inline-flex h-8 items-center gap-1 rounded-md px-2 text-sm text-gray-700 ring-1 ring-gray-300 hover:bg-gray-50 md:hidden"
            >
              <SlidersHorizontal aria-hidden="true" className="size-4" />
              Filters{activeFilters > 0 ? ` (${activeFilters})` : ''}
            </button>
            <label className={`${foldedOnPhone} flex items-center gap-1.5 text-sm text-gray-700`}>
              Group By
              <Dropdown label="Group By" options={groupByOptions(labelKeys)} value={params.groupBy} onChange={(value) => update({ groupBy: value })} />
            </label>
            <label className={`${foldedOnPhone} flex items-center gap-1.5 text-sm text-gray-700`}>
              Tab By
              <Dropdown label="Tab By" options={tabByOptions(labelKeys)} value={params.tabBy} onChange={(value) => update({ tabBy: value, tab: null, pageSize: null })} />
            </label>
            <label className={`${foldedOnPhone} flex items-center gap-1.5 text-sm text-gray-700`}>
              Pivot By
              <Dropdown label="Pivot By" options={pivotByOptions(labelKeys)} value={pivotOptionValue(params.pivotBy, params.pivotLabel)} onChange={handlePivotBy} />
            </label>
            {pivotBy !== null && (
              <label className="flex items-center gap-1.5 text-sm text-gray-700">
                Cell
                <Dropdown<PivotCellType>
                  label="Cell"
                  options={PIVOT_CELL_OPTIONS}
                  value={params.pivotCellType}
                  onChange={(value) => update({ pivotCellType: value })}
                />
              </label>
            )}
            {params.status.length > 0 && (
              <span className="inline-flex h-8 items-center gap-1 rounded-md bg-blue-50 px-2 text-sm text-blue-800">
                Status: {params.status.join(', ')}
                <button type="button" aria-label="Clear status filter" className="rounded hover:bg-blue-100" onClick={() => update({ status: null })}>
                  <X aria-hidden="true" className="size-4" />
                </button>
              </span>
            )}
          </FilterBar>
          {summary.isError ? (
            <QueryError error={summary.error} onRetry={() => void summary.refetch()} />
          ) : (
            <HealthTabs tabs={tabs} value={params.tab} onChange={(tab) => update({ tab, pageSize: null })}>
              {matrix !== null ? (
                <HealthPivotTable matrix={matrix} cellType={params.pivotCellType} isLoading={isLoading} onOpenCheck={handleOpenCheck} />
              ) : params.layout === 'card' ? (
                isLoading ? (
                  <p className="py-8 text-center text-sm text-gray-500" aria-busy="true">
                    Loading checks…
                  </p>
                ) : (
                  <HealthCheckCards
                    checks={data.checks_summary}
                    groups={data.groups}
                    groupBy={groupBy}
                    totalEntries={data.totalEntries}
                    onOpenCheck={handleOpenCheck}
                    onShowMore={groupBy === null ? () => growPage(Math.min(params.pageSize * 2, Math.max(data.totalEntries, params.pageSize))) : undefined}
                  />
                )
              ) : (
                <HealthChecksTable
                  rows={buildHealthRows(data.checks_summary, data.groups, groupBy, expandedKeys, summary.isPlaceholderData)}
                  isLoading={isLoading}
                  sortBy={params.sortBy}
                  sortDesc={params.sortDesc}
                  onSortChange={(sortBy, sortDesc) => update({ sortBy, sortDesc: String(sortDesc) })}
                  onToggleGroup={handleToggleGroup}
                  onOpenCheck={handleOpenCheck}
                  pagination={
                    groupBy === null
                      ? { pageIndex: 0, pageSize: params.pageSize, totalCount: data.totalEntries, onPaginationChange: (next) => growPage(next.pageSize) }
                      : undefined
                  }
                />
              )}
            </HealthTabs>
          )}
        </section>
      </div>
      {params.checkId !== null && <CheckDetailModal key={params.checkId} checkId={params.checkId} initialCheck={openCheck} onClose={() => update({ checkId: null })} />}
    </div>
  );
}
