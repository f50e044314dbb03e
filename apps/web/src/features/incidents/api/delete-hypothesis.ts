import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { incidentsKeys } from './keys';

/**
 * Deletes a hypothesis and the ones under it, with their comments and evidence, in one server transaction. A failure
 * is only logged (spec 000 §8).
 */
export async function deleteHypothesis(id: string): Promise<void> {
  await requestJson(`/api/hypotheses/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteHypothesis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHypothesis,
    onError: (error) => console.error('Deleting the hypothesis failed', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.details() }),
  });
}
