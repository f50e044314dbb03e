import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LogSelector, RowWith, ViewRow } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { textSearchFilter } from '@/lib/api/text-search';
import { logsKeys } from './keys';

/** A configuration item some log backend route serves, as the picker lists it (tags tell same-named items apart). */
export type ConfigItemOption = RowWith<Pick<ViewRow<'config_items_with_logs'>, 'id' | 'name' | 'type' | 'tags'>, { tags: Record<string, string> | null }>;

/** The item with the selectors the logs call takes (JSON in the view). */
export type ConfigItemWithLogs = ConfigItemOption & { log_selectors: LogSelector[] | null };

const OPTION_COLUMNS = 'id,name,type,tags';
/**
 * The picker asks the server for this many items whose name or type holds the typed text: an estate has far more items
 * than components, so they are searched where they are (`config_items_with_logs`, migration 0130) and never all read.
 */
export const CONFIG_ITEM_OPTIONS_LIMIT = 50;

export async function searchConfigItemOptions(text: string, signal?: AbortSignal): Promise<ConfigItemOption[]> {
  const filter = textSearchFilter(['name', 'type'], text);
  const select = silentDb.from('config_items_with_logs').select(OPTION_COLUMNS);
  const query = (filter === null ? select : select.or(filter)).order('name', { ascending: true }).limit(CONFIG_ITEM_OPTIONS_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ConfigItemOption[], { merge: false }>();
  return data;
}

/** The item with its selectors, or null when no log backend serves it (or it is gone, or it is no item). */
export async function getConfigItemWithLogs(id: string, signal?: AbortSignal): Promise<ConfigItemWithLogs | null> {
  const query = silentDb.from('config_items_with_logs').select(`${OPTION_COLUMNS},log_selectors`).eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ConfigItemWithLogs[], { merge: false }>();
  return data[0] ?? null;
}

/** The items matching what is typed in the picker, asked for only while its list is open. */
export function useConfigItemOptionsQuery(text: string, enabled: boolean) {
  const search = text.trim();
  return useQuery({
    queryKey: logsKeys.configItems(search),
    queryFn: ({ signal }) => searchConfigItemOptions(search, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}
