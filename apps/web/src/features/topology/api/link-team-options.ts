import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';

export interface TeamOption {
  id: string;
  name: string;
  icon: string | null;
}

/** The teams a component can be given to, by name. */
export async function getTeamsToLink(signal?: AbortSignal): Promise<TeamOption[]> {
  const query = silentDb.from('teams').select('id,name,icon').is('deleted_at', null).order('name');
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<TeamOption[], { merge: false }>();
  return data;
}

export function useLinkTeamOptionsQuery() {
  return useQuery({ queryKey: componentPanelKeys.teamOptions(), queryFn: ({ signal }) => getTeamsToLink(signal) });
}
