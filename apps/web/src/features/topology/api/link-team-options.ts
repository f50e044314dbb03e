import type { TableRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

export type TeamOption = Pick<TableRow<'teams'>, 'id' | 'name' | 'icon'>;

/** The teams a component can be given to, by name. */
export async function getTeamsToLink(signal?: AbortSignal): Promise<TeamOption[]> {
  const query = silentDb.from('teams').select('id,name,icon').is('deleted_at', null).order('name');
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useLinkTeamOptionsQuery() {
  return useQuery({ queryKey: componentPanelKeys.teamOptions(), queryFn: ({ signal }) => getTeamsToLink(signal) });
}
