import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ViewRow } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { INSIGHTS_PAGE_SIZE, splitTristate } from '../insight-params';
import { catalogInsightsKeys, type InsightListQuery } from './keys';

/** A row of config_analysis_items (spec 002 §3 config analysis, with the item it is about). */
export type InsightRow = Pick<
  ViewRow<'config_analysis_items'>,
  | 'id' | 'config_id' | 'analyzer' | 'analysis_type' | 'severity' | 'status' | 'summary' | 'message' | 'source' | 'first_observed'
  | 'last_observed' | 'config_name' | 'config_type' | 'config_class' | 'config_deleted_at' | 'analysis'
>;

export interface InsightPage {
  rows: InsightRow[];
  totalCount: number;
}

// One literal, so postgrest-js infers the rows' type from it (a `+` would widen it to string).
const INSIGHT_SELECT =
  'id,config_id,analyzer,analysis_type,severity,status,summary,message,source,first_observed,last_observed,config_name,config_type,config_class,config_deleted_at,analysis';

/** PostgREST's `in` list, each value quoted so commas and parentheses inside a value stay part of it. */
function inList(values: readonly string[]): string {
  return `(${values.map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')})`;
}

/**
 * One page of insights, filtered, ordered and counted by the server. A component filter reads analysis_by_component
 * (migration 0081), the same columns plus component_id, so it pages in the database like the rest.
 */
export async function getInsights(query: InsightListQuery, pageIndex: number, pageSize: number, signal?: AbortSignal): Promise<InsightPage> {
  const view = query.component === '' ? 'config_analysis_items' : 'analysis_by_component';
  // The page shows a failure in place of the table, so a toast would say it twice.
  let request = silentDb.from(view).select(INSIGHT_SELECT, { count: 'exact' });
  // `filter` is `eq` untyped: component_id is a column of analysis_by_component only, the view this branch reads.
  if (query.component !== '') request = request.filter('component_id', 'eq', query.component);
  if (query.configId !== null) request = request.eq('config_id', query.configId);
  const columns = [
    ['config_type', query.configType],
    ['analysis_type', query.analysisType],
    ['severity', query.severity.toLowerCase()],
    ['analyzer', query.analyzer],
    ['status', query.status],
  ] as const;
  for (const [column, value] of columns) {
    const { include, exclude } = splitTristate(value);
    if (include.length > 0) request = request.in(column, include);
    if (exclude.length > 0) request = request.not(column, 'in', inList(exclude));
  }
  const from = pageIndex * pageSize;
  // Ties break by id, so a page boundary never repeats or skips a row.
  const ordered = request
    .order(query.sortBy, { ascending: query.ascending })
    .order('id', { ascending: true })
    .range(from, from + pageSize - 1);
  const { data, count } = await (signal ? ordered.abortSignal(signal) : ordered).throwOnError();
  return { rows: data, totalCount: count ?? data.length };
}

/** The global list: one numbered page at a time. */
export function useInsightsPageQuery(query: InsightListQuery, pageIndex: number, pageSize: number) {
  return useQuery({
    queryKey: catalogInsightsKeys.page(query, pageIndex, pageSize),
    queryFn: ({ signal }) => getInsights(query, pageIndex, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}

/** A config's panel: pages of 50 appended as the reader scrolls. */
export function useInsightsInfiniteQuery(query: InsightListQuery) {
  return useInfiniteQuery({
    queryKey: catalogInsightsKeys.infinite(query),
    queryFn: ({ pageParam, signal }) => getInsights(query, pageParam, INSIGHTS_PAGE_SIZE, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (pages.length * INSIGHTS_PAGE_SIZE < last.totalCount ? pages.length : undefined),
    placeholderData: keepPreviousData,
  });
}
