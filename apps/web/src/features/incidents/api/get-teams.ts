import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { TeamWithSpec } from './types';

export async function getTeams(signal?: AbortSignal): Promise<TeamWithSpec[]> {
  const query = db.from('teams').select('id,name,icon,spec').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const rows: TeamWithSpec[] = data;
  return rows;
}

export function useTeamsQuery(enabled = true) {
  return useQuery({ queryKey: incidentsKeys.teams(), queryFn: ({ signal }) => getTeams(signal), staleTime: LOOKUP_STALE_TIME_MS, enabled });
}
