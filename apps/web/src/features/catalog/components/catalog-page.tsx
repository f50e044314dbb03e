import { useCallback, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { HIDE_DELETED_CATALOG_DEFAULT, parseGroupKey, type CatalogSummaryRequest, type CatalogSummaryRow } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { QueryError } from '@/components/status/query-error';
import { HIDE_DELETED_CATALOG_KEY, usePreference } from '@/lib/preferences/use-preference';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useConfigTypesQuery } from '../api/get-catalog-lookups';
import { useCatalogSummaryQuery, useRefreshCatalogSummary } from '../api/get-catalog-summary';
import { isConfigSortColumn, RANK_SORT } from '../api/config-sort';
import { useConfigsQuery } from '../api/get-configs';
import type { ConfigListQuery } from '../api/keys';
import {
  DEFAULT_SORT_BY,
  formatLabels,
  isProblem,
  isSummaryView,
  parseLabels,
  parseTags,
  splitTristate,
  toMatchList,
  useCatalogParams,
  withIncludedTags,
  type CatalogParamName,
  type CatalogParams,
  type KeyValue,
  type ParamProblem,
  type TagFilter,
} from '../utils/catalog-params';
import { CatalogFilters } from './catalog-filters';
import { CatalogFlatTable } from './catalog-flat-table';
import { CatalogSummaryTable, groupValue } from './catalog-summary-table';
import { CatalogTabs } from './catalog-tabs';
import type { CatalogTableSort } from './catalog-virtual-table';

/** What the summary sorts by besides its groupBy entries (ADR 0052). */
const SUMMARY_MEASURES = ['count', 'changes', 'cost', 'created_at', 'updated_at'];

type Changes = Partial<Record<CatalogParamName, string | null>>;

function useSort(params: CatalogParams, update: (changes: Changes) => void, active: string): CatalogTableSort {
  return {
    sortBy: active,
    sortOrder: params.sortOrder,
    onSort: (columnId) => update({ sortBy: columnId, sortOrder: columnId === active && params.sortOrder === 'asc' ? 'desc' : 'asc' }),
  };
}

interface SummaryViewProps {
  params: CatalogParams;
  tags: TagFilter;
  hideDeleted: boolean;
  update: (changes: Changes, options?: { push?: boolean }) => void;
}

function SummaryView({ params, tags, hideDeleted, update }: SummaryViewProps) {
  // The default sort (type) only applies when type is one of the groups; otherwise the server picks the first group.
  const sortBy = params.groupBy.includes(params.sortBy) || SUMMARY_MEASURES.includes(params.sortBy) ? params.sortBy : undefined;
  const request: CatalogSummaryRequest = {
    groupBy: params.groupBy,
    deleted: !hideDeleted,
    // The summary matches tags by equality only; excluded tags narrow the flat table.
    filter: Object.keys(tags.include).length > 0 ? { tags: tags.include } : {},
    health: toMatchList(params.health),
    status: toMatchList(params.status),
    changes: { since: '30d' },
    analysis: { since: '30d' },
    cost: { since: '30d' },
    sortBy,
    sortOrder: params.sortOrder,
  };
  const summary = useCatalogSummaryQuery(request);
  const refresh = useRefreshCatalogSummary(request);
  const sort = useSort(params, update, sortBy ?? params.groupBy[0] ?? DEFAULT_SORT_BY);

  const openGroup = (row: CatalogSummaryRow) => {
    const labels: KeyValue[] = [];
    const groupTags: KeyValue[] = [];
    const changes: Changes = { groupBy: null };
    for (const entry of params.groupBy) {
      const key = parseGroupKey(entry);
      const value = groupValue(row, entry);
      if (key === null || value === null) continue;
      if (key.kind === 'label') labels.push({ key: key.key, value });
      else if (key.kind === 'tag') groupTags.push({ key: key.key, value });
      else if (key.column === 'type') changes.configType = value;
      else if (key.column === 'health' || key.column === 'status') changes[key.column] = `${value}:1`;
    }
    if (labels.length > 0) changes.labels = formatLabels(labels);
    if (groupTags.length > 0) changes.tags = withIncludedTags(params.tags, groupTags);
    // A measure the flat table cannot sort by falls back to its default.
    if (!isConfigSortColumn(params.sortBy)) changes.sortBy = null;
    update(changes, { push: true });
  };

  if (summary.isError) return <QueryError subject="Catalog summary" error={summary.error} onRetry={() => void summary.refetch()} />;
  const groups = summary.data?.length;
  return (
    <div className="flex min-h-0 flex-col gap-1">
      <div className="flex items-center gap-1 text-xs text-gray-500">
        {groups !== undefined && <p>{groups === 1 ? '1 group' : `${groups.toLocaleString('en-US')} groups`}</p>}
        {/* The summary may be up to 5 minutes old (ADR 0053); this asks for one that reflects every write so far. */}
        <Button variant="ghost" aria-label="Refresh summary" title="Refresh summary" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          <RefreshCw aria-hidden="true" className={refresh.isPending ? 'size-3.5 animate-spin' : 'size-3.5'} />
        </Button>
      </div>
      <CatalogSummaryTable rows={summary.data ?? []} groupBy={params.groupBy} isLoading={summary.isPending} sort={sort} onOpenGroup={openGroup} />
    </div>
  );
}

interface FlatViewProps {
  params: CatalogParams;
  labels: Record<string, string>;
  tags: TagFilter;
  hideDeleted: boolean;
  update: (changes: Changes) => void;
}

function FlatView({ params, labels, tags, hideDeleted, update }: FlatViewProps) {
  const navigate = useNavigate();
  // A search the user has not sorted lists its best matches first; a column they chose wins over relevance.
  const ranked = params.search.trim() !== '' && !params.sortByChosen;
  const column = isConfigSortColumn(params.sortBy) ? params.sortBy : 'type';
  const sortBy = ranked ? RANK_SORT : column;
  const query: ConfigListQuery = {
    configType: params.configType,
    labels,
    tagsInclude: tags.include,
    tagsExclude: tags.exclude,
    search: params.search,
    health: splitTristate(params.health),
    status: splitTristate(params.status),
    hideDeleted,
    sortBy,
    ascending: params.sortOrder === 'asc',
  };
  const configs = useConfigsQuery(query);
  const sort = useSort(params, update, sortBy);
  const rows = useMemo(() => configs.data?.pages.flatMap((page) => page.rows) ?? [], [configs.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = configs;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (configs.isError) return <QueryError subject="Catalog items" error={configs.error} onRetry={() => void configs.refetch()} />;
  const total = configs.data?.pages[0]?.totalCount;
  return (
    <div className="flex min-h-0 flex-col gap-1">
      {total !== undefined && (
        <p className="text-xs text-gray-500">
          {total === 1 ? '1 item' : `${total.toLocaleString('en-US')} items`}
          {ranked && ', best matches first'}
        </p>
      )}
      <CatalogFlatTable
        rows={rows}
        isLoading={configs.isPending}
        sort={sort}
        onOpen={(item) => void navigate(`/catalog/${item.id}`)}
        onEndReached={loadMore}
      />
    </div>
  );
}

function ParamProblemMessage({ problem, onClear }: { problem: ParamProblem; onClear: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-700">
      <p>The {problem.param} parameter could not be read: {problem.message}</p>
      <button type="button" className="rounded border border-red-300 bg-white px-2 py-1 font-medium hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-500" onClick={onClear}>
        Clear {problem.param} filter
      </button>
    </div>
  );
}

function UnknownTypeMessage({ type, onClear }: { type: string; onClear: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-800">
      <p>Unknown config type '{type}': no item in the catalog has this type.</p>
      <button type="button" className="rounded border border-amber-300 bg-white px-2 py-1 font-medium hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-blue-500" onClick={onClear}>
        Show all types
      </button>
    </div>
  );
}

/** /catalog: the grouped summary until a type, label or search narrows it, then the items themselves (spec 002 §2.1). */
export function CatalogPage() {
  useDocumentTitle('Catalog');
  const { params, update } = useCatalogParams();
  const [hideDeletedPreference] = usePreference(HIDE_DELETED_CATALOG_KEY, HIDE_DELETED_CATALOG_DEFAULT);
  const hideDeleted = hideDeletedPreference !== 'no';
  const summary = isSummaryView(params);
  const labels = useMemo(() => parseLabels(params.labels), [params.labels]);
  const tags = useMemo(() => parseTags(params.tags), [params.tags]);
  const labelPairs = useMemo(() => (isProblem(labels) ? [] : Object.entries(labels).map(([key, value]) => ({ key, value }))), [labels]);

  const types = useConfigTypesQuery();
  // Only a type list that loaded can say a type is unknown; until then, or if it failed, the table is asked anyway.
  const unknownType = params.configType !== '' && types.data !== undefined && !types.data.some((row) => row.type === params.configType);

  let body: ReactNode;
  if (isProblem(labels)) body = <ParamProblemMessage problem={labels} onClear={() => update({ labels: null })} />;
  else if (isProblem(tags)) body = <ParamProblemMessage problem={tags} onClear={() => update({ tags: null })} />;
  else if (unknownType) body = <UnknownTypeMessage type={params.configType} onClear={() => update({ configType: null })} />;
  else if (summary) body = <SummaryView params={params} tags={tags} hideDeleted={hideDeleted} update={update} />;
  else body = <FlatView params={params} labels={labels} tags={tags} hideDeleted={hideDeleted} update={update} />;

  return (
    <section className="flex min-h-0 flex-col gap-2 p-4">
      <CatalogTabs />
      <header className="flex items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Catalog</h1>
      </header>
      <CatalogFilters params={params} labels={labelPairs} summary={summary} onChange={update} />
      {body}
    </section>
  );
}
