import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { topologyKeys } from './keys';
import { MANUAL_SELECTOR } from './get-component-configs';

export interface ComponentTeamPair {
  componentId: string;
  teamId: string;
}

/** Makes a team an owner of the component by hand (selector 'manual'). */
export async function linkTeam({ componentId, teamId }: ComponentTeamPair): Promise<void> {
  await silentDb.from('team_components').insert({ team_id: teamId, component_id: componentId, selector_id: MANUAL_SELECTOR }).throwOnError();
}

export function useLinkTeamMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkTeam,
    onSuccess: async () => {
      toastSuccess('team link successful');
      // The cards show their teams' avatars.
      await queryClient.invalidateQueries({ queryKey: topologyKeys.all });
    },
    onError: (error) => toastError(error),
  });
}
