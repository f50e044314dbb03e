import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EvidenceType } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { EvidencePayload } from './types';

export interface NewEvidenceInput {
  hypothesisId: string;
  type: EvidenceType;
  description: string;
  createdBy: string | null;
  evidence?: EvidencePayload;
  configId?: string;
  configAnalysisId?: string;
  configChangeId?: string;
  componentId?: string;
  checkId?: string;
  definitionOfDone?: boolean;
  script?: string;
}

export async function createEvidence(input: NewEvidenceInput): Promise<void> {
  await db
    .from('evidences')
    .insert({
      hypothesis_id: input.hypothesisId,
      type: input.type,
      description: input.description,
      created_by: input.createdBy,
      evidence: input.evidence ?? null,
      config_id: input.configId ?? null,
      config_analysis_id: input.configAnalysisId ?? null,
      config_change_id: input.configChangeId ?? null,
      component_id: input.componentId ?? null,
      check_id: input.checkId ?? null,
      definition_of_done: input.definitionOfDone ?? false,
      script: input.script ?? null,
    })
    .throwOnError();
}

export function useCreateEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEvidence,
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
