import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS, type TableRow } from '@opsdeck/shared';
import { db } from './db';

/** A person as the Created By avatars of list pages show them. */
export type Person = Pick<TableRow<'people'>, 'id' | 'name' | 'avatar'>;

export const peopleKeys = {
  byIds: (ids: readonly string[]) => ['people', 'by-id', ids] as const,
};

export async function getPeopleByIds(ids: readonly string[], signal?: AbortSignal): Promise<Person[]> {
  if (ids.length === 0) return [];
  const query = db.from('people').select('id,name,avatar').in('id', [...ids]);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

/** The people behind the ids of a list (e.g. its creators), looked up once and kept for the lookup freshness. */
export function usePeopleByIdsQuery(ids: readonly string[]) {
  return useQuery({
    queryKey: peopleKeys.byIds(ids),
    queryFn: ({ signal }) => getPeopleByIds(ids, signal),
    enabled: ids.length > 0,
    staleTime: LOOKUP_STALE_TIME_MS,
  });
}
