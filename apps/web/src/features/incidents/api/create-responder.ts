import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INCIDENT_MESSAGES, type ResponderKind } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export interface NewResponderInput {
  incidentId: string;
  type: ResponderKind;
  teamId: string | null;
  personId: string | null;
  createdBy: string | null;
  properties: Record<string, string>;
}

export async function createResponder(input: NewResponderInput): Promise<void> {
  await silentDb
    .from('responders')
    .insert({
      type: input.type,
      incident_id: input.incidentId,
      created_by: input.createdBy,
      team_id: input.teamId,
      person_id: input.personId,
      properties: input.properties,
    })
    .select('*')
    .throwOnError();
}

export function useCreateResponder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createResponder,
    onSuccess: () => toastSuccess(INCIDENT_MESSAGES.responderAdded),
    onError: toastError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
