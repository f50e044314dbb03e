import type { ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { topologyKeys } from './keys';

export type ComponentName = Pick<ViewRow<'component_names'>, 'id' | 'name' | 'icon'>;

/** The names of a component's ancestors (its `path` ids) for the breadcrumb, from the component_names view. */
export async function getPathNames(ids: readonly string[], signal?: AbortSignal): Promise<ComponentName[]> {
  const request = silentDb.from('component_names').select('id,name,icon').in('id', [...ids]);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

export function usePathNamesQuery(ids: readonly string[]) {
  return useQuery({
    queryKey: topologyKeys.pathNames(ids),
    queryFn: ({ signal }) => getPathNames(ids, signal),
    enabled: ids.length > 0,
    // Names of ancestors rarely change; the breadcrumb need not follow the cards' 30 s refresh.
    staleTime: 5 * 60_000,
  });
}
