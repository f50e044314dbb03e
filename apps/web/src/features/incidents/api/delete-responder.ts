import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

/** Responders are soft-deleted: the row stays for the changelog. */
export async function deleteResponder(id: string): Promise<void> {
  await silentDb.from('responders').update({ deleted_at: new Date().toISOString() }).eq('id', id).throwOnError();
}

export function useDeleteResponder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteResponder,
    onSuccess: () => toastSuccess(INCIDENT_MESSAGES.responderDeleted),
    onError: toastError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
