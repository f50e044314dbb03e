import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { readTeam } from './get-teams';
import { propertiesSchema, readColumn } from './json-columns';
import { incidentsKeys } from './keys';
import type { Responder, ResponderRow } from './types';

export const RESPONDER_SELECT = '*,team:teams!responders_team_id_fkey(id,name,icon,spec),person:people!responders_person_id_fkey(id,name,avatar)';

/** Checks a responder's properties and its team's spec; unreadable properties are left empty with the reason kept. */
export function readResponder(row: ResponderRow): Responder {
  const properties = readColumn('properties', propertiesSchema, row.properties);
  const team = row.team === null ? null : readTeam(row.team);
  return properties.ok ? { ...row, team, properties: properties.value } : { ...row, team, properties: {}, unreadable: properties.problem };
}

/** The incident's responders that have not been removed, oldest first. */
export async function getResponders(incidentId: string, signal?: AbortSignal): Promise<Responder[]> {
  const query = db.from('responders').select(RESPONDER_SELECT).eq('incident_id', incidentId).is('deleted_at', null).order('created_at', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data.map(readResponder);
}

export function useRespondersQuery(incidentId: string) {
  return useQuery({ queryKey: incidentsKeys.responders(incidentId), queryFn: ({ signal }) => getResponders(incidentId, signal) });
}
