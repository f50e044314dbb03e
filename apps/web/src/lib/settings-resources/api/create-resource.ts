import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDynamicDb } from '@/lib/api/db';
import { requestJson } from '@/lib/api/http';
import { withoutAbsentFields, type SettingsResourceKind } from '../settings-resource-kind';
import { settingsResourceKeys } from './keys';
import type { SettingsResourceInput } from './types';

export interface CreateResourceInput {
  kind: SettingsResourceKind;
  input: SettingsResourceInput;
  createdBy: string | null;
}

export async function createResource({ kind, input, createdBy }: CreateResourceInput): Promise<void> {
  const body = withoutAbsentFields(kind, { ...input, created_by: createdBy });
  if (kind.service.kind === 'service') {
    await requestJson<unknown>(kind.service.path, { method: 'POST', json: body, silent: true });
    return;
  }
  await silentDynamicDb.from(kind.table).insert(body).throwOnError();
}

export function useCreateResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createResource,
    onSuccess: async (_result, { kind, input }) => {
      toastSuccess(`${input.name} created successfully`);
      await queryClient.invalidateQueries({ queryKey: settingsResourceKeys.table(kind.table) });
    },
    onError: toastError,
  });
}
