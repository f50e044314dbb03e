import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  LOOKUP_STALE_TIME_MS,
  resolveTimeRange,
  type PlaybookRef,
  type PlaybookRunStatus,
  type PlaybookTargetType,
  type TableRow,
  type TimeRange,
} from '@opsdeck/shared';
import { silentDb, silentDynamicDb } from '@/lib/api/db';
import { playbookKeys } from './keys';

/** A row of /playbooks/runs as the data API answers it (spec 001 §3 "Playbook run" without parameters and actions). */
export type PlaybookRunRow = Pick<
  TableRow<'playbook_runs'>,
  'id' | 'status' | 'playbook_id' | 'config_id' | 'component_id' | 'check_id' | 'created_at' | 'start_time' | 'end_time' | 'scheduled_time' | 'created_by' | 'error'
> & { playbooks: PlaybookRef | null };

export interface PlaybookRunsPage {
  rows: PlaybookRunRow[];
  totalCount: number;
}

/** What the run list asks for; null filters are not applied. */
export interface PlaybookRunsQuery {
  playbookId: string | null;
  status: PlaybookRunStatus | null;
  timeRange: TimeRange;
  pageIndex: number;
  pageSize: number;
}

const PLAYBOOK_RUN_LIST_SELECT =
  'id,status,playbook_id,config_id,component_id,check_id,created_at,start_time,end_time,scheduled_time,created_by,error,playbooks(id,name,title,icon)';

function rangeKey(range: TimeRange): string {
  return range.type === 'relative' ? range.range : `${range.from}|${range.to}`;
}

/**
 * One page of runs, newest first, with the exact count. The time range bounds created_at rather than start_time: a
 * run that is pending, waiting for approval or scheduled has no start yet and must still be listed; created_at is also
 * what playbook_runs_created_at_idx orders by.
 */
export async function getPlaybookRuns(query: PlaybookRunsQuery, signal?: AbortSignal): Promise<PlaybookRunsPage> {
  const { from, to } = resolveTimeRange(query.timeRange);
  const start = query.pageIndex * query.pageSize;
  let request = silentDb
    .from('playbook_runs')
    .select(PLAYBOOK_RUN_LIST_SELECT, { count: 'exact' })
    .gte('created_at', from.toISOString())
    .order('created_at', { ascending: false })
    .range(start, start + query.pageSize - 1);
  // A relative range ends now: no upper bound, so a run requested a moment after the page opened is not cut off.
  if (query.timeRange.type !== 'relative') request = request.lte('created_at', to.toISOString());
  if (query.playbookId !== null) request = request.eq('playbook_id', query.playbookId);
  if (query.status !== null) request = request.eq('status', query.status);
  const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return { rows: data, totalCount: count ?? data.length };
}

export function usePlaybookRunsQuery(query: PlaybookRunsQuery) {
  return useQuery({
    queryKey: playbookKeys.runs({
      playbook: query.playbookId,
      status: query.status,
      range: rangeKey(query.timeRange),
      page: query.pageIndex,
      pageSize: query.pageSize,
    }),
    queryFn: ({ signal }) => getPlaybookRuns(query, signal),
    placeholderData: keepPreviousData,
  });
}

export type PlaybookOption = Pick<TableRow<'playbooks'>, 'id' | 'name' | 'title'>;

/** The live playbooks, for the run list's playbook filter. */
export async function getPlaybookOptions(signal?: AbortSignal): Promise<PlaybookOption[]> {
  const request = silentDb.from('playbooks').select('id,name,title').is('deleted_at', null).order('name');
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

export function usePlaybookOptionsQuery() {
  return useQuery({
    queryKey: [...playbookKeys.all, 'run-filter-options'] as const,
    queryFn: ({ signal }) => getPlaybookOptions(signal),
    staleTime: LOOKUP_STALE_TIME_MS,
  });
}

export interface RunTargetName {
  id: string;
  name: string;
}

const TARGET_TABLES: Record<PlaybookTargetType, string> = { config: 'config_items', component: 'components', check: 'checks' };

/** The names of one type of target, for the Resource column of the visible rows: one request per type and page. */
export async function getRunTargetNames(type: PlaybookTargetType, ids: readonly string[], signal?: AbortSignal): Promise<RunTargetName[]> {
  if (ids.length === 0) return [];
  const request = silentDynamicDb.from(TARGET_TABLES[type]).select('id,name').in('id', [...ids]);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

export function useRunTargetNamesQuery(type: PlaybookTargetType, ids: readonly string[]) {
  return useQuery({
    queryKey: [...playbookKeys.all, 'run-target-names', type, ids] as const,
    queryFn: ({ signal }) => getRunTargetNames(type, ids, signal),
    enabled: ids.length > 0,
    staleTime: LOOKUP_STALE_TIME_MS,
  });
}
