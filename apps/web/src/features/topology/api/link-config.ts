import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { topologyKeys } from './keys';
import { MANUAL_SELECTOR } from './get-component-configs';

export interface ComponentConfigPair {
  componentId: string;
  configId: string;
}

/** Links a catalog item to a component by hand (selector 'manual'). */
export async function linkConfig({ componentId, configId }: ComponentConfigPair): Promise<void> {
  await silentDb.from('config_component_relationships').insert({ component_id: componentId, config_id: configId, selector_id: MANUAL_SELECTOR }).throwOnError();
}

export function useLinkConfigMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkConfig,
    onSuccess: async () => {
      toastSuccess('config link successful');
      // The card's summaries count the linked items' insights, so the whole view is asked again.
      await queryClient.invalidateQueries({ queryKey: topologyKeys.all });
    },
    onError: (error) => toastError(error),
  });
}
