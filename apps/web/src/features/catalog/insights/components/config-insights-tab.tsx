import { useMemo, useState, type UIEvent } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { useInsightsInfiniteQuery, type InsightRow } from '../api/get-insights';
import type { InsightListQuery } from '../api/keys';
import { DEFAULT_INSIGHT_SORT, LOAD_MORE_WITHIN_PX, isInsightSort } from '../insight-params';
import { CONFIG_INSIGHT_COLUMNS, CONFIG_INSIGHT_LAYOUT } from './insight-columns';
import { InsightDetailPanel } from './insight-detail-panel';
import { InsightFilterBar } from './insight-filter-bar';
import { useInsightSearchParams } from './use-insight-search-params';

export interface ConfigInsightsTabProps {
  configId: string;
}

/**
 * The Insights tab of /catalog/{id}: this config's insights as a scrolling panel. Spec 002 §2.1's panel behaviour
 * lives here: the next 50 load when the reader scrolls within 300 px of the end, and a button does the same for the
 * keyboard and for a first page too short to scroll.
 */
export function ConfigInsightsTab({ configId }: ConfigInsightsTabProps) {
  const { params, update, setFilter } = useInsightSearchParams();
  const { analysisType, severity, analyzer, status, sortBy, sortOrder } = params;
  const query = useMemo<InsightListQuery>(
    () => ({ configId, configType: '', analysisType, severity, analyzer, status, component: '', sortBy, ascending: sortOrder === 'asc' }),
    [configId, analysisType, severity, analyzer, status, sortBy, sortOrder],
  );
  const insights = useInsightsInfiniteQuery(query);
  const [selected, setSelected] = useState<InsightRow | null>(null);
  const rows = useMemo(() => (insights.data?.pages ?? []).flatMap((page) => page.rows), [insights.data]);
  const totalCount = insights.data?.pages.at(-1)?.totalCount ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = insights;

  // Scroll events do not bubble, so the table's own scrolling body is watched from here in the capture phase.
  const handleScrollCapture = (event: UIEvent<HTMLDivElement>) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !hasNextPage || isFetchingNextPage) return;
    if (target.scrollHeight - target.scrollTop - target.clientHeight <= LOAD_MORE_WITHIN_PX) void fetchNextPage();
  };

  const sorting: SortingState = [{ id: sortBy, desc: sortOrder === 'desc' }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    const column = first && isInsightSort(first.id) ? first.id : DEFAULT_INSIGHT_SORT;
    const descending = first ? first.desc : true;
    update({ sortBy: column === DEFAULT_INSIGHT_SORT ? null : column, sortOrder: descending ? null : 'asc' });
  };

  return (
    <section aria-label="Insights" className="flex min-h-0 flex-col gap-2">
      <InsightFilterBar filters={params} onChange={setFilter} scope="config" />
      {insights.isError ? (
        <QueryError subject="Insights" error={insights.error} onRetry={() => void insights.refetch()} />
      ) : (
        <div onScrollCapture={handleScrollCapture} className="flex min-h-0 flex-col">
          <DataTable
            label="Config insights"
            columns={CONFIG_INSIGHT_COLUMNS}
            data={rows}
            isLoading={insights.isPending}
            emptyText="No insights for this config"
            getRowId={(insight) => insight.id}
            onRowClick={setSelected}
            sorting={{ sorting, onSortingChange: handleSortingChange }}
            layout={CONFIG_INSIGHT_LAYOUT}
            maxHeight="60vh"
          />
        </div>
      )}
      {!insights.isPending && !insights.isError && rows.length > 0 && (
        <div className="flex items-center justify-between gap-2 text-sm text-gray-600">
          <span role="status">
            {rows.length} of {totalCount} insights
          </span>
          {hasNextPage && (
            <Button variant="secondary" isPending={isFetchingNextPage} onClick={() => void fetchNextPage()}>
              Load more
            </Button>
          )}
        </div>
      )}
      {selected && <InsightDetailPanel insight={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}
