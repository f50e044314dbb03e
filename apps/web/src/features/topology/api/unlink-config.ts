import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { topologyKeys } from './keys';
import { MANUAL_SELECTOR } from './get-component-configs';
import type { ComponentConfigPair } from './link-config';

/** Removes a hand-made link; selector_id=eq.manual leaves the links the topology spec made in place. */
export async function unlinkConfig({ componentId, configId }: ComponentConfigPair): Promise<void> {
  await silentDb
    .from('config_component_relationships')
    .delete()
    .eq('component_id', componentId)
    .eq('config_id', configId)
    .eq('selector_id', MANUAL_SELECTOR)
    .throwOnError();
}

export function useUnlinkConfigMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkConfig,
    onSuccess: async () => {
      toastSuccess('Deleted config link successfully');
      await queryClient.invalidateQueries({ queryKey: topologyKeys.all });
    },
    onError: (error) => toastError(error),
  });
}
