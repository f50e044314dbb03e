import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { teamKeys } from './keys';
import type { TeamPerson } from './team-members';

export interface AddTeamMembersInput {
  teamId: string;
  people: readonly TeamPerson[];
}

/** POST /team_members with one row per person (spec 002 §7). */
export async function addTeamMembers({ teamId, people }: AddTeamMembersInput): Promise<void> {
  await silentDb
    .from('team_members')
    .insert(people.map((person) => ({ team_id: teamId, person_id: person.id })))
    .throwOnError();
}

export function useAddTeamMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTeamMembers,
    onSuccess: async (_result, { teamId, people }) => {
      toastSuccess(`${people.map((person) => person.name).join(', ')} added to the team successfully`);
      await queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) });
    },
    onError: toastError,
  });
}
