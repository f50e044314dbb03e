import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INCIDENT_MESSAGES } from '@opsdeck/shared';
import { toastError } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export interface EvidenceChanges {
  definition_of_done?: boolean;
  done?: boolean;
  script?: string | null;
  description?: string;
}

export async function updateEvidence(ids: readonly string[], changes: EvidenceChanges): Promise<void> {
  await silentDb.from('evidences').update(changes).in('id', ids).throwOnError();
}

export interface EvidenceUpdate {
  ids: readonly string[];
  changes: EvidenceChanges;
}

/** The message a failed change reports: adding to or removing from the definition of done has its own. */
function failureMessage(changes: EvidenceChanges, error: unknown): unknown {
  if (changes.definition_of_done === true) return INCIDENT_MESSAGES.definitionOfDoneAddFailed;
  if (changes.definition_of_done === false) return INCIDENT_MESSAGES.definitionOfDoneRemoveFailed;
  return error;
}

export function useUpdateEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, changes }: EvidenceUpdate) => updateEvidence(ids, changes),
    onError: (error, { changes }) => toastError(failureMessage(changes, error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
