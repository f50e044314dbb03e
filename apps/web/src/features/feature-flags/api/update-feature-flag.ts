import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { invalidateFeatureFlags } from './invalidate';
import type { FeatureFlagInput } from './types';

/** The name is the key of a property, so it selects the row and is never changed. */
export async function updateFeatureFlag({ name, value, description }: FeatureFlagInput): Promise<void> {
  await silentDb
    .from('properties')
    .update({ value, description: description === '' ? null : description })
    .eq('name', name)
    .throwOnError();
}

export function useUpdateFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFeatureFlag,
    onSuccess: async () => {
      toastSuccess('Feature flag updated successfully');
      await invalidateFeatureFlags(queryClient);
    },
    onError: toastError,
  });
}
