import type { ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';
import { COMPONENT_PANEL_LIMIT } from './get-component-incidents';

export type ComponentChange = Pick<
  ViewRow<'changes_by_component'>,
  'id' | 'config_id' | 'change_type' | 'severity' | 'summary' | 'created_at' | 'config_name' | 'config_type'
>;

/** Changes of the catalog items linked to the component, newest first. */
export async function getComponentChanges(componentId: string, signal?: AbortSignal): Promise<ComponentChange[]> {
  const query = silentDb
    .from('changes_by_component')
    .select('id,config_id,change_type,severity,summary,created_at,config_name,config_type')
    .eq('component_id', componentId)
    .order('created_at', { ascending: false })
    .limit(COMPONENT_PANEL_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentChangesQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.changes(componentId), queryFn: ({ signal }) => getComponentChanges(componentId, signal) });
}
