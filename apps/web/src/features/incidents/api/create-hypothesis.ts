import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_HYPOTHESIS_STATUS, type HypothesisType } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export interface NewHypothesisInput {
  incidentId: string;
  parentId: string | null;
  type: HypothesisType;
  title: string;
  createdBy: string | null;
}

export async function createHypothesis(input: NewHypothesisInput): Promise<void> {
  await db
    .from('hypotheses')
    .insert({
      id: crypto.randomUUID(),
      incident_id: input.incidentId,
      parent_id: input.parentId,
      type: input.type,
      title: input.title,
      status: DEFAULT_HYPOTHESIS_STATUS,
      created_by: input.createdBy,
    })
    .throwOnError();
}

export function useCreateHypothesis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createHypothesis,
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.details() }),
  });
}
