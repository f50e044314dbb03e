import type { TableRow, ViewRow } from '@opsdeck/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { agentsKeys } from './keys';

/** A row of the agents list: agents_summary with its creator (spec 001 §3 "Agent"). */
export type AgentListRow = Pick<
  ViewRow<'agents_summary'>,
  | 'id'
  | 'name'
  | 'description'
  | 'hostname'
  | 'version'
  | 'last_seen'
  | 'last_received'
  | 'created_at'
  | 'updated_at'
  | 'config_count'
  | 'checks_count'
  | 'config_scrapper_count'
  | 'playbook_runs_count'
> & { creator: Pick<TableRow<'people'>, 'id' | 'name'> | null };

/** The columns the list sorts by, each a column of agents_summary. */
export const AGENT_SORT_FIELDS = [
  'name',
  'config_count',
  'checks_count',
  'config_scrapper_count',
  'playbook_runs_count',
  'last_seen',
  'last_received',
  'created_at',
  'updated_at',
] as const;
export type AgentSortField = (typeof AGENT_SORT_FIELDS)[number];

export interface AgentListQuery {
  sortBy: AgentSortField;
  sortDesc: boolean;
  pageIndex: number;
  pageSize: number;
}

export interface AgentListPage {
  rows: AgentListRow[];
  totalCount: number;
}

const AGENT_LIST_SELECT =
  'id,name,description,hostname,version,last_seen,last_received,created_at,updated_at,config_count,checks_count,config_scrapper_count,playbook_runs_count,creator:people!agents_created_by_fkey(id,name)';

/** One page of agents, sorted on the server, with the exact count; the id breaks ties so pages never overlap. */
export async function getAgents(query: AgentListQuery, signal?: AbortSignal): Promise<AgentListPage> {
  const start = query.pageIndex * query.pageSize;
  const request = silentDb
    .from('agents_summary')
    .select(AGENT_LIST_SELECT, { count: 'exact' })
    .order(query.sortBy, { ascending: !query.sortDesc, nullsFirst: false })
    .order('id', { ascending: true })
    .range(start, start + query.pageSize - 1);
  const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return { rows: data, totalCount: count ?? data.length };
}

export function useAgentsQuery(query: AgentListQuery) {
  return useQuery({
    queryKey: [...agentsKeys.lists(), query] as const,
    queryFn: ({ signal }) => getAgents(query, signal),
    placeholderData: keepPreviousData,
  });
}
