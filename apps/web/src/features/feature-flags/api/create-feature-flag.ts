import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { invalidateFeatureFlags } from './invalidate';
import { UI_SOURCE, type FeatureFlagInput } from './types';

export interface CreateFeatureFlagInput extends FeatureFlagInput {
  createdBy: string | null;
}

export async function createFeatureFlag({ name, value, description, createdBy }: CreateFeatureFlagInput): Promise<void> {
  await silentDb
    .from('properties')
    .insert({ name, value, description: description === '' ? null : description, source: UI_SOURCE, created_by: createdBy })
    .throwOnError();
}

export function useCreateFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeatureFlag,
    onSuccess: async () => {
      toastSuccess('Feature flag added successfully');
      await invalidateFeatureFlags(queryClient);
    },
    onError: toastError,
  });
}
