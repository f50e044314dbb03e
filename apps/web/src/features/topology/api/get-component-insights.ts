import type { ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';
import { COMPONENT_PANEL_LIMIT } from './get-component-incidents';

export type ComponentInsight = Pick<
  ViewRow<'analysis_by_component'>,
  'id' | 'config_id' | 'analyzer' | 'analysis_type' | 'severity' | 'summary' | 'last_observed' | 'config_name'
>;

/** Open insights of the catalog items linked to the component, most recently seen first. */
export async function getComponentInsights(componentId: string, signal?: AbortSignal): Promise<ComponentInsight[]> {
  const query = silentDb
    .from('analysis_by_component')
    .select('id,config_id,analyzer,analysis_type,severity,summary,last_observed,config_name')
    .eq('component_id', componentId)
    .eq('status', 'open')
    .order('last_observed', { ascending: false })
    .limit(COMPONENT_PANEL_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentInsightsQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.insights(componentId), queryFn: ({ signal }) => getComponentInsights(componentId, signal) });
}
