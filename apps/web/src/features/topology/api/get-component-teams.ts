import type { TableRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

export type ComponentTeamLink = Pick<
  TableRow<'team_components'>,
  'team_id' | 'role' | 'selector_id'
> & { team: Pick<TableRow<'teams'>, 'id' | 'name' | 'icon'> | null };

/** The teams that own the component. */
export async function getComponentTeams(componentId: string, signal?: AbortSignal): Promise<ComponentTeamLink[]> {
  const query = silentDb.from('team_components').select('team_id,role,selector_id,team:team_id(id,name,icon)').eq('component_id', componentId);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentTeamsQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.teams(componentId), queryFn: ({ signal }) => getComponentTeams(componentId, signal) });
}
