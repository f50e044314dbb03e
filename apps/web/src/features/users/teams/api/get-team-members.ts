import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { teamKeys } from './keys';
import type { TeamPerson } from './team-members';

/** The team's members, as spec 002 §7 asks for them, oldest first; people deleted since are left out. */
export async function getTeamMembers(teamId: string, signal?: AbortSignal): Promise<TeamPerson[]> {
  const query = db.from('team_members').select('*,person_id(*)').eq('team_id', teamId).order('created_at', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data
    .filter((row) => row.person_id.deleted_at === null)
    .map(({ person_id: person }) => ({ id: person.id, name: person.name, email: person.email, avatar: person.avatar }));
}

export function useTeamMembersQuery(teamId: string) {
  return useQuery({ queryKey: teamKeys.members(teamId), queryFn: ({ signal }) => getTeamMembers(teamId, signal) });
}
