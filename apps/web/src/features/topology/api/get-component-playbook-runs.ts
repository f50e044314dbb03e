import type { TableRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { componentPanelKeys } from './component-panel-keys';
import { COMPONENT_PANEL_LIMIT } from './get-component-incidents';

export type ComponentPlaybookRun = Pick<
  TableRow<'playbook_runs'>,
  'id' | 'status' | 'created_at' | 'start_time' | 'end_time'
> & { playbook: Pick<TableRow<'playbooks'>, 'id' | 'name' | 'title'> | null };

/** The component's playbook runs, newest first (playbook_runs_component_idx serves it), one page of 50. */
export async function getComponentPlaybookRuns(componentId: string, signal?: AbortSignal): Promise<ComponentPlaybookRun[]> {
  const query = silentDb
    .from('playbook_runs')
    .select('id,status,created_at,start_time,end_time,playbook:playbook_id(id,name,title)')
    .eq('component_id', componentId)
    .order('created_at', { ascending: false })
    .limit(COMPONENT_PANEL_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useComponentPlaybookRunsQuery(componentId: string) {
  return useQuery({ queryKey: componentPanelKeys.playbookRuns(componentId), queryFn: ({ signal }) => getComponentPlaybookRuns(componentId, signal) });
}
