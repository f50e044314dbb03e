import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INCIDENT_MESSAGES, type IncidentSeverity, type IncidentStatus, type IncidentType } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { db, silentDb } from '@/lib/api/db';
import { incidentsKeys } from './keys';

export interface IncidentChanges {
  title?: string;
  type?: IncidentType;
  severity?: IncidentSeverity;
}

export async function updateIncident(id: string, changes: IncidentChanges): Promise<void> {
  await db.from('incidents').update(changes).eq('id', id).throwOnError();
}

/** Title, type and severity edits; a failure is toasted with the server's message. */
export function useUpdateIncident(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: IncidentChanges) => updateIncident(id, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}

export async function updateIncidentStatus(id: string, status: IncidentStatus): Promise<void> {
  await silentDb.from('incidents').update({ status }).eq('id', id).throwOnError();
}

export function useUpdateIncidentStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: IncidentStatus) => updateIncidentStatus(id, status),
    onSuccess: () => toastSuccess(INCIDENT_MESSAGES.statusUpdated),
    onError: () => toastError(INCIDENT_MESSAGES.statusUpdateFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentsKeys.all }),
  });
}
