import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FILTER_ALL } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { incidentsKeys, type IncidentListParams } from './keys';
import { incidentSearchFilter } from './search-incidents';
import type { IncidentListItem } from './types';

export interface IncidentPage {
  rows: IncidentListItem[];
  totalCount: number;
}

export const INCIDENT_LIST_SELECT =
  'id,incident_id,title,type,severity,status,created_by,created_at,' +
  'responders!responders_incident_id_fkey(id,type,person:people!responders_person_id_fkey(id,name,avatar),team:teams!responders_team_id_fkey(id,name,icon))';

/** Matching through the evidence tree; added only when a component is chosen, since it is an existence test. */
const COMPONENT_FILTER_EMBED = ',hypotheses!inner(evidences!inner())';

function isActive(value: string): boolean {
  return value !== '' && value !== FILTER_ALL;
}

/** One page of incidents, filtered, sorted and counted by the server. */
export async function getIncidents(params: IncidentListParams, signal?: AbortSignal): Promise<IncidentPage> {
  const select = INCIDENT_LIST_SELECT + (isActive(params.component) ? COMPONENT_FILTER_EMBED : '');
  let query = db.from('incidents').select(select, { count: 'exact' }).is('responders.deleted_at', null);
  // The address's values are sent as they are (`filter` is `eq` untyped): one outside the column's check finds no rows.
  if (isActive(params.type)) query = query.filter('type', 'eq', params.type);
  if (isActive(params.severity)) query = query.filter('severity', 'eq', params.severity);
  if (isActive(params.status)) query = query.filter('status', 'eq', params.status);
  if (isActive(params.owner)) query = query.eq('created_by', params.owner);
  if (isActive(params.component)) query = query.eq('hypotheses.evidences.component_id', params.component);
  const search = incidentSearchFilter(params.search);
  if (search !== null) query = query.or(search);
  const from = params.pageIndex * params.pageSize;
  const ascending = !params.sortDesc;
  // Severities sort by rank, not by name; rank and id go the same way so one index pages both directions.
  const sorted =
    params.sortBy === 'severity'
      ? query.order('severity_rank', { ascending }).order('id', { ascending })
      : query.order(params.sortBy, { ascending }).order('id', { ascending: false });
  const ordered = sorted
    .order('created_at', { ascending: true, referencedTable: 'responders' })
    .range(from, from + params.pageSize - 1);
  const { data, count } = await (signal ? ordered.abortSignal(signal) : ordered).throwOnError().overrideTypes<IncidentListItem[], { merge: false }>();
  return { rows: data, totalCount: count ?? data.length };
}

export function useIncidentsQuery(params: IncidentListParams) {
  return useQuery({
    queryKey: incidentsKeys.list(params),
    queryFn: ({ signal }) => getIncidents(params, signal),
    placeholderData: keepPreviousData,
    // The list reflects work other responders do, so it is asked for again every time the page is shown.
    refetchOnMount: 'always',
  });
}
