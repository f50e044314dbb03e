import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDynamicDb } from '@/lib/api/db';
import { requestJson } from '@/lib/api/http';
import type { SettingsResourceKind } from '../settings-resource-kind';
import { settingsResourceKeys } from './keys';

export interface DeleteResourceInput {
  kind: SettingsResourceKind;
  id: string;
  name: string;
}

export async function deleteResource({ kind, id }: DeleteResourceInput): Promise<void> {
  if (kind.service.kind === 'service') {
    await requestJson<null>(`${kind.service.path}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
    return;
  }
  await silentDynamicDb.from(kind.table).delete().eq('id', id).throwOnError();
}

export function useDeleteResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteResource,
    onSuccess: async (_result, { kind, name }) => {
      toastSuccess(`${name} deleted successfully`);
      await queryClient.invalidateQueries({ queryKey: settingsResourceKeys.table(kind.table) });
    },
    onError: toastError,
  });
}
