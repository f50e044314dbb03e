import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { settingsResourceKeys } from './keys';
import type { TeamPerson } from './team-members';

/** Everyone who could join a team (GET /people, spec 002 §7): live people, by name. */
export async function getTeamCandidates(signal?: AbortSignal): Promise<TeamPerson[]> {
  const query = db.from('people').select('id,name,email,avatar').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const people: TeamPerson[] = data;
  return people;
}

/** Loaded when the add dialog opens, and fresh each time it does, so a user invited meanwhile is offered. */
export function useTeamCandidatesQuery(enabled: boolean) {
  return useQuery({ queryKey: settingsResourceKeys.teamCandidates(), queryFn: ({ signal }) => getTeamCandidates(signal), enabled, staleTime: 0 });
}
