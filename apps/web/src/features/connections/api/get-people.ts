import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { connectionsKeys } from './keys';
import type { Person } from './types';

/** The people who created the listed connections, for the Created By avatars. */
export async function getPeople(ids: readonly string[], signal?: AbortSignal): Promise<Person[]> {
  if (ids.length === 0) return [];
  const query = db.from('people').select('id,name,avatar').in('id', [...ids]);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const people: Person[] = data;
  return people;
}

export function usePeopleQuery(ids: readonly string[]) {
  return useQuery({
    queryKey: connectionsKeys.people(ids),
    queryFn: ({ signal }) => getPeople(ids, signal),
    enabled: ids.length > 0,
    staleTime: LOOKUP_STALE_TIME_MS,
  });
}
