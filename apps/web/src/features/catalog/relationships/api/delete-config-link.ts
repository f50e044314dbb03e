import { useMutation, useQueryClient } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { relationshipKeys } from './keys';

export interface ConfigLinkPair {
  configId: string;
  relatedId: string;
}

/**
 * Removes the manual links between the two items, whichever way they point. selector_id=eq.manual keeps a link a
 * scraper also made in place (the server refuses to remove those).
 */
export async function deleteConfigLink({ configId, relatedId }: ConfigLinkPair): Promise<void> {
  await silentDb
    .from('config_relationships')
    .delete()
    .eq('selector_id', 'manual')
    .or(`and(config_id.eq.${configId},related_id.eq.${relatedId}),and(config_id.eq.${relatedId},related_id.eq.${configId})`)
    .throwOnError();
}

export function useDeleteConfigLinkMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConfigLink,
    onSuccess: async () => {
      toastSuccess('Deleted config link successfully');
      await queryClient.invalidateQueries({ queryKey: relationshipKeys.all });
    },
    // The silent client leaves the report to this toast, so the server's message shows once.
    onError: (error) => toastError(error),
  });
}
