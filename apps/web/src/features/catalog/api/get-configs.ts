import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { CATALOG_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { RANK_SORT } from './config-sort';
import { catalogKeys, type ConfigListQuery } from './keys';
import type { ConfigPage, ConfigListItem } from './types';

/** Rows asked for at a time; the next page loads when the last loaded row scrolls into view. */
export const CONFIG_PAGE_SIZE = 200;

export const CONFIG_LIST_SELECT =
  'id,name,type,config_class,status,health,labels,tags,created_at,updated_at,deleted_at,last_scraped_time,' +
  'cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agent_id(id,name)';

/** PostgREST's `in` list, each value quoted so commas and parentheses inside a value stay part of it. */
function inList(values: readonly string[]): string {
  return `(${values.map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',')})`;
}

/**
 * The rows the filters narrow: every item, or with a search the items it finds inside their name, labels, tags and
 * content (rpc/search_configs), which carry the same columns plus their rank, so the filters below apply to both.
 */
function configSource(search: string) {
  const list = db.from('configs').select(CONFIG_LIST_SELECT, { count: 'exact' });
  return search === '' ? list : db.rpc('search_configs', { search }, { get: true, count: 'exact' }).select(CONFIG_LIST_SELECT);
}

/** One page of config items, filtered, searched, sorted and counted by the server. */
export async function getConfigs(query: ConfigListQuery, pageIndex: number, signal?: AbortSignal): Promise<ConfigPage> {
  let request = configSource(query.search.trim());
  if (query.configType !== '') request = request.eq('type', query.configType);
  if (Object.keys(query.labels).length > 0) request = request.contains('labels', query.labels);
  if (Object.keys(query.tagsInclude).length > 0) request = request.contains('tags', query.tagsInclude);
  for (const tag of query.tagsExclude) request = request.not('tags', 'cs', JSON.stringify({ [tag.key]: tag.value }));
  for (const column of ['health', 'status'] as const) {
    const { include, exclude } = query[column];
    if (include.length > 0) request = request.in(column, include);
    if (exclude.length > 0) request = request.not(column, 'in', inList(exclude));
  }
  if (query.hideDeleted) request = request.is('deleted_at', null);
  const from = pageIndex * CONFIG_PAGE_SIZE;
  // Ties break by name then id, so a page boundary never repeats or skips a row. Best matches come first.
  const ordered = request
    .order(query.sortBy, { ascending: query.sortBy === RANK_SORT ? false : query.ascending })
    .order('name', { ascending: true })
    .order('id', { ascending: true })
    .range(from, from + CONFIG_PAGE_SIZE - 1);
  const { data, count } = await (signal ? ordered.abortSignal(signal) : ordered).throwOnError().overrideTypes<ConfigListItem[], { merge: false }>();
  return { rows: data, totalCount: count ?? data.length };
}

export function useConfigsQuery(query: ConfigListQuery) {
  return useInfiniteQuery({
    queryKey: catalogKeys.configs(query),
    queryFn: ({ pageParam, signal }) => getConfigs(query, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (pages.length * CONFIG_PAGE_SIZE < last.totalCount ? pages.length : undefined),
    placeholderData: keepPreviousData,
    staleTime: CATALOG_STALE_TIME_MS,
  });
}
