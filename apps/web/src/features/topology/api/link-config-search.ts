import type { ViewRow } from '@opsdeck/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TOPOLOGY_CONFIG_SEARCH_LIMIT } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

export type ConfigCandidate = Pick<ViewRow<'configs'>, 'id' | 'name' | 'type'>;

/** `%`, `_` and `\` are LIKE wildcards and its escape: typed, they mean themselves. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Live catalog items whose name contains `search`, by name, at most 50 (spec 001 §9). */
export async function searchConfigsToLink(search: string, signal?: AbortSignal): Promise<ConfigCandidate[]> {
  const text = search.trim();
  let query = silentDb.from('configs').select('id,name,type').is('deleted_at', null);
  if (text !== '') query = query.ilike('name', `*${likeLiteral(text)}*`);
  const request = query.order('name').limit(TOPOLOGY_CONFIG_SEARCH_LIMIT);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

export function useLinkConfigSearchQuery(search: string) {
  return useQuery({
    queryKey: componentPanelKeys.configSearch(search.trim()),
    queryFn: ({ signal }) => searchConfigsToLink(search, signal),
    placeholderData: keepPreviousData,
  });
}
