import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import type { IncidentDetail } from './types';

const PERSON = '(id,name,avatar)';

// Foreign-key hints are needed: incident_histories links incidents, hypotheses, evidences and comments to one another,
// which would otherwise make these embeds ambiguous.
export const INCIDENT_DETAIL_SELECT = [
  '*',
  `creator:people!incidents_created_by_fkey${PERSON}`,
  `commander:people!incidents_commander_id_fkey${PERSON}`,
  `communicator:people!incidents_communicator_id_fkey${PERSON}`,
  'hypotheses!hypotheses_incident_id_fkey(*,evidences!evidences_hypothesis_id_fkey(*,' +
    `creator:people!evidences_created_by_fkey${PERSON},` +
    'check:checks(id,name,icon,type,status,canary_id),' +
    'config:config_items(id,name,type,config_class,health,status),' +
    'component:components(id,name,icon,status,topology_id),' +
    'config_analysis(id,analyzer,analysis_type,severity,status,summary,config_id),' +
    'config_change:config_changes(id,change_type,severity,summary,config_id,created_at)))',
  `comments!comments_incident_id_fkey(*,author:people!comments_created_by_fkey${PERSON},responder:responders!comments_responder_id_fkey(id,team:teams(id,name,icon)))`,
].join(',');

/** The incident with its hypotheses, their evidence, and its comments; null when there is no such incident. */
export async function getIncident(id: string, signal?: AbortSignal): Promise<IncidentDetail | null> {
  const query = db
    .from('incidents')
    .select(INCIDENT_DETAIL_SELECT)
    .eq('id', id)
    .order('created_at', { ascending: true, referencedTable: 'hypotheses' })
    .order('created_at', { ascending: true, referencedTable: 'hypotheses.evidences' })
    .order('created_at', { ascending: true, referencedTable: 'comments' })
    .limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<IncidentDetail[], { merge: false }>();
  return data[0] ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function useIncidentQuery(id: string) {
  return useQuery({
    queryKey: incidentsKeys.detail(id),
    // An id that is not a uuid cannot exist; asking would only earn a 400 toast.
    queryFn: ({ signal }) => (UUID.test(id) ? getIncident(id, signal) : Promise.resolve(null)),
  });
}
