import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS, type TableRow } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export type ComponentOption = Pick<TableRow<'components'>, 'id' | 'name'>;

/** The largest number of components the Component filter offers, in name order. */
export const COMPONENT_OPTIONS_LIMIT = 500;

export async function getComponentOptions(signal?: AbortSignal): Promise<ComponentOption[]> {
  const query = db.from('components').select('id,name').is('deleted_at', null).order('name', { ascending: true }).limit(COMPONENT_OPTIONS_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentOptionsQuery() {
  return useQuery({ queryKey: incidentsKeys.components(), queryFn: ({ signal }) => getComponentOptions(signal), staleTime: LOOKUP_STALE_TIME_MS });
}
