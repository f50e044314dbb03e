import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HypothesisStatus } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export interface HypothesisChanges {
  title?: string;
  status?: HypothesisStatus;
}

export async function updateHypothesis(id: string, changes: HypothesisChanges): Promise<void> {
  await db.from('hypotheses').update(changes).eq('id', id).throwOnError();
}

export function useUpdateHypothesis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: HypothesisChanges }) => updateHypothesis(id, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
