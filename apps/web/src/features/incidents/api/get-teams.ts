import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { readColumn, teamSpecSchema } from './json-columns';
import { incidentsKeys } from './keys';
import type { TeamRow, TeamWithSpec } from './types';

/** Checks a team's spec; an unreadable one counts as no responder clients and the reason is kept for the screen. */
export function readTeam(row: TeamRow): TeamWithSpec {
  const spec = readColumn('spec', teamSpecSchema, row.spec);
  return spec.ok ? { ...row, spec: spec.value } : { ...row, spec: null, unreadable: spec.problem };
}

export async function getTeams(signal?: AbortSignal): Promise<TeamWithSpec[]> {
  const query = db.from('teams').select('id,name,icon,spec').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data.map(readTeam);
}

export function useTeamsQuery(enabled = true) {
  return useQuery({ queryKey: incidentsKeys.teams(), queryFn: ({ signal }) => getTeams(signal), staleTime: LOOKUP_STALE_TIME_MS, enabled });
}
