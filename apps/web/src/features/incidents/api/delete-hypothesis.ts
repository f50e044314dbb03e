import { useMutation, useQueryClient } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

/**
 * Deletes hypotheses (a hypothesis and the ones under it): their comments and evidence first, then the hypotheses.
 * A failure is only logged (spec 000 §8).
 */
export async function deleteHypotheses(ids: readonly string[]): Promise<void> {
  await silentDb.from('comments').delete().in('hypothesis_id', ids).throwOnError();
  await silentDb.from('evidences').delete().in('hypothesis_id', ids).throwOnError();
  await silentDb.from('hypotheses').delete().in('id', ids).throwOnError();
}

export function useDeleteHypotheses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHypotheses,
    onError: (error) => console.error('Deleting the hypothesis failed', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.details() }),
  });
}
