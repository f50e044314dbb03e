import { useMemo, useState } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/button/button';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/status/query-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CatalogTabs } from '../../components/catalog-tabs';
import { useInsightsPageQuery, type InsightRow } from '../api/get-insights';
import type { InsightListQuery } from '../api/keys';
import { DEFAULT_INSIGHT_SORT, INSIGHTS_PAGE_SIZE, isInsightSort } from '../insight-params';
import { GLOBAL_INSIGHT_COLUMNS, GLOBAL_INSIGHT_LAYOUT } from './insight-columns';
import { InsightDetailPanel } from './insight-detail-panel';
import { InsightFilterBar } from './insight-filter-bar';
import { useInsightSearchParams } from './use-insight-search-params';

/** /catalog/insights: every config's insights, filtered, sorted and paged by the server (spec 002 §2.1). */
export function CatalogInsightsPage() {
  useDocumentTitle('Catalog insights');
  const { params, update, setFilter } = useInsightSearchParams();
  const { configType, analysisType, severity, analyzer, status, component, sortBy, sortOrder } = params;
  const query = useMemo<InsightListQuery>(
    () => ({ configId: null, configType, analysisType, severity, analyzer, status, component, sortBy, ascending: sortOrder === 'asc' }),
    [configType, analysisType, severity, analyzer, status, component, sortBy, sortOrder],
  );
  const insights = useInsightsPageQuery(query, params.pageIndex, params.pageSize);
  const [selected, setSelected] = useState<InsightRow | null>(null);

  const sorting: SortingState = [{ id: sortBy, desc: sortOrder === 'desc' }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    const column = first && isInsightSort(first.id) ? first.id : DEFAULT_INSIGHT_SORT;
    const descending = first ? first.desc : true;
    update({ sortBy: column === DEFAULT_INSIGHT_SORT ? null : column, sortOrder: descending ? null : 'asc', pageIndex: null });
  };

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <CatalogTabs />
      <header className="flex flex-wrap items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Insights</h1>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void insights.refetch()} disabled={insights.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
      </header>
      <InsightFilterBar filters={params} onChange={setFilter} scope="global" />
      {insights.isError ? (
        <QueryError subject="Insights" error={insights.error} onRetry={() => void insights.refetch()} />
      ) : (
        <DataTable
          label="Insights"
          columns={GLOBAL_INSIGHT_COLUMNS}
          data={insights.data?.rows ?? []}
          isLoading={insights.isPending}
          emptyText="No insights match these filters"
          getRowId={(insight) => insight.id}
          onRowClick={setSelected}
          pagination={{
            pageIndex: params.pageIndex,
            pageSize: params.pageSize,
            totalCount: insights.data?.totalCount ?? 0,
            onPaginationChange: (next) =>
              update({
                pageIndex: next.pageIndex === 0 ? null : String(next.pageIndex),
                pageSize: next.pageSize === INSIGHTS_PAGE_SIZE ? null : String(next.pageSize),
              }),
          }}
          sorting={{ sorting, onSortingChange: handleSortingChange }}
          layout={GLOBAL_INSIGHT_LAYOUT}
          preferenceKey="catalog-insights"
        />
      )}
      {selected && <InsightDetailPanel insight={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}
