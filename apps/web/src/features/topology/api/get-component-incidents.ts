import type { ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

/** Spec 002 §9: the panels show 50 rows. */
export const COMPONENT_PANEL_LIMIT = 50;

export type ComponentIncident = Pick<
  ViewRow<'incidents_by_component'>,
  'id' | 'incident_id' | 'title' | 'type' | 'severity' | 'status' | 'created_at'
>;

/** Incidents whose evidence points at the component, newest first. */
export async function getComponentIncidents(componentId: string, signal?: AbortSignal): Promise<ComponentIncident[]> {
  const query = silentDb
    .from('incidents_by_component')
    .select('id,incident_id,title,type,severity,status,created_at')
    .eq('component_id', componentId)
    .order('created_at', { ascending: false })
    .limit(COMPONENT_PANEL_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentIncidentsQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.incidents(componentId), queryFn: ({ signal }) => getComponentIncidents(componentId, signal) });
}
