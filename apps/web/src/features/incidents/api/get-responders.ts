import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { Responder } from './types';

export const RESPONDER_SELECT = '*,team:teams!responders_team_id_fkey(id,name,icon,spec),person:people!responders_person_id_fkey(id,name,avatar)';

/** The incident's responders that have not been removed, oldest first. */
export async function getResponders(incidentId: string, signal?: AbortSignal): Promise<Responder[]> {
  const query = db.from('responders').select(RESPONDER_SELECT).eq('incident_id', incidentId).is('deleted_at', null).order('created_at', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const rows: Responder[] = data;
  return rows;
}

export function useRespondersQuery(incidentId: string) {
  return useQuery({ queryKey: incidentsKeys.responders(incidentId), queryFn: ({ signal }) => getResponders(incidentId, signal) });
}
