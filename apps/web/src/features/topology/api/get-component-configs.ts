import type { TableRow, ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

/** selector_id of a link a user made; the others come from the topology spec and are rebuilt by it. */
export const MANUAL_SELECTOR = 'manual';

export type ComponentConfigLink = Pick<
  TableRow<'config_component_relationships'>,
  'config_id' | 'selector_id'
> & { config: Pick<ViewRow<'configs'>, 'id' | 'name' | 'type' | 'health' | 'status'> | null };

const SELECT = 'config_id,selector_id,config:config_id(id,name,type,health,status)';

/** The catalog items linked to a component (live links only). */
export async function getComponentConfigs(componentId: string, signal?: AbortSignal): Promise<ComponentConfigLink[]> {
  const query = silentDb.from('config_component_relationships').select(SELECT).eq('component_id', componentId).is('deleted_at', null);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentConfigsQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.configs(componentId), queryFn: ({ signal }) => getComponentConfigs(componentId, signal) });
}
