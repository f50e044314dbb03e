import type { ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

export type ComponentCheck = Pick<ViewRow<'checks_by_component'>, 'id' | 'name' | 'type' | 'status'>;

/** The checks linked to the component, by name. */
export async function getComponentChecks(componentId: string, signal?: AbortSignal): Promise<ComponentCheck[]> {
  const query = silentDb.from('checks_by_component').select('id,name,type,status').eq('component_id', componentId).order('name');
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentChecksQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.checks(componentId), queryFn: ({ signal }) => getComponentChecks(componentId, signal) });
}
