import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { textSearchFilter } from '@/lib/api/text-search';
import { teamKeys } from './keys';
import type { TeamPerson } from './team-members';

/** The most people one search returns; typing more narrows it. */
export const TEAM_CANDIDATE_LIMIT = 50;

/** The columns the search looks in. */
const SEARCH_COLUMNS = ['name', 'email'] as const;

/**
 * Who could join the team (GET /people, spec 002 §7): live people whose name or e-mail contains the text, first 50 by
 * name, leaving out the team's members on the server. `team_members()` embeds this team's memberships only (the
 * `team_members.team_id` filter) and `team_members=is.null` keeps the people without one, so the request stays the
 * same size however large the team is.
 */
export async function searchTeamCandidates(teamId: string, text: string, signal?: AbortSignal): Promise<TeamPerson[]> {
  const filter = textSearchFilter(SEARCH_COLUMNS, text);
  const select = silentDb
    .from('people')
    .select('id,name,email,avatar,team_members()')
    .is('deleted_at', null)
    .eq('team_members.team_id', teamId)
    .is('team_members', null);
  const request = (filter === null ? select : select.or(filter))
    .order('name', { ascending: true })
    .order('id', { ascending: true })
    .limit(TEAM_CANDIDATE_LIMIT);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data.map(({ id, name, email, avatar }) => ({ id, name, email, avatar }));
}

/**
 * Asked once something is typed (the caller debounces it), and again each time the dialog opens, so a user invited
 * or a member added meanwhile is accounted for; the last answer stays while the next one loads.
 */
export function useTeamCandidatesQuery(teamId: string, text: string) {
  return useQuery({
    queryKey: [...teamKeys.candidates(), teamId, text] as const,
    queryFn: ({ signal }) => searchTeamCandidates(teamId, text, signal),
    enabled: text !== '',
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}
