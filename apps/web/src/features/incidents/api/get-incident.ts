import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { incidentsKeys } from './keys';
import { evidencePayloadSchema, propertiesSchema, readColumn } from './json-columns';
import type { Evidence, EvidenceRow, IncidentDetail, IncidentDetailRow } from './types';

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
    'config_change:config_changes(id,change_type,severity,summary,config_id,created_at),' +
    'alert:alerts(id,name,status,severity,labels,generator_url,last_received_at)))',
  `comments!comments_incident_id_fkey(*,author:people!comments_created_by_fkey${PERSON},responder:responders!comments_responder_id_fkey(id,team:teams(id,name,icon)))`,
].join(',');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The column a route parameter names an incident by: its uuid, or otherwise its display id (INC-12). */
export function incidentKeyColumn(id: string): 'id' | 'incident_id' {
  return UUID.test(id) ? 'id' : 'incident_id';
}

/** Checks the JSON columns of one evidence; an unreadable one is left empty and the reason kept for the screen. */
export function readEvidence(row: EvidenceRow): Evidence {
  const payload = readColumn('evidence', evidencePayloadSchema, row.evidence);
  const properties = readColumn('properties', propertiesSchema, row.properties);
  const problems = [payload, properties].flatMap((read) => (read.ok ? [] : [read.problem]));
  return {
    ...row,
    evidence: payload.ok ? payload.value : null,
    properties: properties.ok ? properties.value : {},
    ...(problems.length > 0 && { unreadable: problems.join('; ') }),
  };
}

function readIncident(row: IncidentDetailRow): IncidentDetail {
  return { ...row, hypotheses: row.hypotheses.map((hypothesis) => ({ ...hypothesis, evidences: hypothesis.evidences.map(readEvidence) })) };
}

/**
 * The incident with its hypotheses, their evidence, and its comments, found by uuid or display id; null when there is
 * no such incident.
 */
export async function getIncident(id: string, signal?: AbortSignal): Promise<IncidentDetail | null> {
  const query = db
    .from('incidents')
    .select(INCIDENT_DETAIL_SELECT)
    .eq(incidentKeyColumn(id), id)
    .order('created_at', { ascending: true, referencedTable: 'hypotheses' })
    .order('created_at', { ascending: true, referencedTable: 'hypotheses.evidences' })
    .order('created_at', { ascending: true, referencedTable: 'comments' })
    .limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<IncidentDetailRow[], { merge: false }>();
  const row = data[0];
  return row === undefined ? null : readIncident(row);
}

/** The detail is cached under the id the route carried, uuid or display id; writes reach it through `details()`. */
export function useIncidentQuery(id: string) {
  return useQuery({
    queryKey: incidentsKeys.detail(id),
    queryFn: ({ signal }) => getIncident(id, signal),
  });
}
