import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { IncidentHistoryEntry } from './types';

const HISTORY_RESPONDER =
  'responder:responders!incident_histories_responder_id_fkey(id,type,person:people!responders_person_id_fkey(id,name,avatar),team:teams!responders_team_id_fkey(id,name,icon))';

// A template literal `as const` keeps the select a literal type (a `+` would widen it to string), so postgrest-js
// infers the entries' type from it.
export const INCIDENT_HISTORY_SELECT =
  `*,creator:people!incident_histories_created_by_fkey(id,name,avatar),${HISTORY_RESPONDER},hypothesis:hypotheses!incident_histories_hypothesis_id_fkey(id,title),evidence:evidences!incident_histories_evidence_id_fkey(id,type,description)` as const;

/** The changelog, newest first. */
export async function getIncidentHistory(incidentId: string, signal?: AbortSignal): Promise<IncidentHistoryEntry[]> {
  const query = db.from('incident_histories').select(INCIDENT_HISTORY_SELECT).eq('incident_id', incidentId).order('created_at', { ascending: false });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useIncidentHistoryQuery(incidentId: string, enabled = true) {
  return useQuery({
    queryKey: incidentsKeys.history(incidentId),
    queryFn: ({ signal }) => getIncidentHistory(incidentId, signal),
    enabled,
  });
}
