import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDynamicDb } from '@/lib/api/db';
import { requestJson } from '@/lib/api/http';
import { withoutAbsentFields, type SettingsResourceKind } from '../settings-resource-kind';
import { settingsResourceKeys } from './keys';
import type { SettingsResourceInput } from './types';

export interface UpdateResourceInput {
  kind: SettingsResourceKind;
  id: string;
  input: SettingsResourceInput;
  createdBy: string | null;
}

/** What an update sends: the form's fields and the current user as creator, less the fields the kind keeps out. */
export function updateBody(kind: SettingsResourceKind, input: SettingsResourceInput, createdBy: string | null): Record<string, unknown> {
  const omitted = new Set(kind.updateOmits ?? []);
  return withoutAbsentFields(kind, Object.fromEntries(Object.entries({ ...input, created_by: createdBy }).filter(([key]) => !omitted.has(key))));
}

export async function updateResource({ kind, id, input, createdBy }: UpdateResourceInput): Promise<void> {
  const body = updateBody(kind, input, createdBy);
  if (kind.service.kind === 'service') {
    await requestJson<unknown>(`${kind.service.path}/${encodeURIComponent(id)}`, { method: 'PATCH', json: body, silent: true });
    return;
  }
  await silentDynamicDb.from(kind.table).update(body).eq('id', id).throwOnError();
}

export function useUpdateResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateResource,
    onSuccess: async (_result, { kind, input }) => {
      toastSuccess(`${input.name} updated successfully`);
      await queryClient.invalidateQueries({ queryKey: settingsResourceKeys.table(kind.table) });
    },
    onError: toastError,
  });
}
