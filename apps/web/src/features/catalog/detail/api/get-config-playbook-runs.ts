import type { TableRow } from '@opsdeck/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { configDetailKeys } from './keys';

/** The largest page the pagination offers, which is also the most rows the data API returns at once. */
export const PLAYBOOK_RUNS_MAX_PAGE_SIZE = 1000;

export type ConfigPlaybookRun = Pick<
  TableRow<'playbook_runs'>,
  'id' | 'status' | 'start_time' | 'end_time' | 'scheduled_time' | 'created_at' | 'created_by'
> & { playbook: Pick<TableRow<'playbooks'>, 'id' | 'name' | 'title'> | null };

export interface ConfigPlaybookRunPage {
  rows: ConfigPlaybookRun[];
  totalCount: number;
}

const PLAYBOOK_RUN_SELECT = 'id,status,start_time,end_time,scheduled_time,created_at,created_by,playbook:playbook_id(id,name,title)';

/** One page of the item's runs, newest first (playbook_runs_created_at_idx serves the order). */
export async function getConfigPlaybookRuns(configId: string, pageIndex: number, pageSize: number, signal?: AbortSignal): Promise<ConfigPlaybookRunPage> {
  const from = pageIndex * pageSize;
  const query = silentDb
    .from('playbook_runs')
    .select(PLAYBOOK_RUN_SELECT, { count: 'exact' })
    .eq('config_id', configId)
    .order('created_at', { ascending: false })
    .range(from, from + pageSize - 1);
  const { data, count } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return { rows: data, totalCount: count ?? data.length };
}

export function useConfigPlaybookRunsQuery(configId: string, pageIndex: number, pageSize: number) {
  return useQuery({
    queryKey: configDetailKeys.playbookRuns(configId, pageIndex, pageSize),
    queryFn: ({ signal }) => getConfigPlaybookRuns(configId, pageIndex, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}
