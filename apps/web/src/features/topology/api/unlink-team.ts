import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { topologyKeys } from './keys';
import { MANUAL_SELECTOR } from './get-component-configs';
import type { ComponentTeamPair } from './link-team';

/** Removes a hand-made team link; links the topology spec made stay. */
export async function unlinkTeam({ componentId, teamId }: ComponentTeamPair): Promise<void> {
  await silentDb.from('team_components').delete().eq('component_id', componentId).eq('team_id', teamId).eq('selector_id', MANUAL_SELECTOR).throwOnError();
}

export function useUnlinkTeamMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkTeam,
    onSuccess: async () => {
      toastSuccess('Deleted team link successfully');
      await queryClient.invalidateQueries({ queryKey: topologyKeys.all });
    },
    onError: (error) => toastError(error),
  });
}
