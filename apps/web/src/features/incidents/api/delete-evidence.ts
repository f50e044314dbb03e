import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { toastError } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export async function deleteEvidence(id: string): Promise<void> {
  await silentDb.from('evidences').delete().eq('id', id).throwOnError();
}

export function useDeleteEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEvidence,
    onError: () => toastError(INCIDENT_MESSAGES.evidenceDeleteFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
