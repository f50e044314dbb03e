import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { teamKeys } from './keys';
import type { TeamPerson } from './team-members';

export interface RemoveTeamMemberInput {
  teamId: string;
  person: TeamPerson;
}

/** DELETE /team_members?person_id=eq.{id}, narrowed to this team so the person stays in their other teams. */
export async function removeTeamMember({ teamId, person }: RemoveTeamMemberInput): Promise<void> {
  await silentDb.from('team_members').delete().eq('person_id', person.id).eq('team_id', teamId).throwOnError();
}

export function useRemoveTeamMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTeamMember,
    onSuccess: async (_result, { teamId, person }) => {
      toastSuccess(`${person.name} removed from team successfully`);
      await queryClient.invalidateQueries({ queryKey: teamKeys.members(teamId) });
    },
    onError: toastError,
  });
}
