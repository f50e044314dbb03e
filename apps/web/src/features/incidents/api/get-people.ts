import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { PersonRef } from './types';

export async function getPeople(signal?: AbortSignal): Promise<PersonRef[]> {
  const query = db.from('people').select('id,name,avatar').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function usePeopleQuery() {
  return useQuery({ queryKey: incidentsKeys.people(), queryFn: ({ signal }) => getPeople(signal), staleTime: LOOKUP_STALE_TIME_MS });
}
