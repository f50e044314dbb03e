import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { invalidateFeatureFlags } from './invalidate';

export async function deleteFeatureFlag(name: string): Promise<void> {
  await silentDb.from('properties').delete().eq('name', name).throwOnError();
}

export function useDeleteFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFeatureFlag,
    onSuccess: async () => {
      toastSuccess('Feature flag removed successfully');
      await invalidateFeatureFlags(queryClient);
    },
    onError: toastError,
  });
}
