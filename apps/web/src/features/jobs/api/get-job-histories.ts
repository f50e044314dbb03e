import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { resolveTimeRange, type TimeRange } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { RUN_DURATIONS, type JobHistoryParams } from '../job-history-params';
import { jobKeys } from './keys';

export interface JobHistoriesPage {
  rows: JobHistoryEntry[];
  totalCount: number;
}

function rangeKey(range: TimeRange): string {
  return range.type === 'relative' ? range.range : `${range.from}|${range.to}`;
}

/**
 * Spec 001 §7: GET /job_histories with select=*, limit and offset, the filters, order and Prefer: count=exact. The range
 * bounds created_at, which job_history_created_at_idx serves; a relative range has no upper bound so runs recorded
 * after the page opened still show.
 */
export async function getJobHistories(params: JobHistoryParams, signal?: AbortSignal): Promise<JobHistoriesPage> {
  const { from, to } = resolveTimeRange(params.timeRange);
  const start = params.pageIndex * params.pageSize;
  let request = silentDb
    .from('job_histories')
    .select('*', { count: 'exact' })
    .gte('created_at', from.toISOString())
    .order(params.sortBy, { ascending: params.sortOrder === 'asc', nullsFirst: false })
    .range(start, start + params.pageSize - 1);
  if (params.timeRange.type !== 'relative') request = request.lte('created_at', to.toISOString());
  if (params.status !== null) request = request.eq('status', params.status);
  if (params.name !== null) request = request.eq('name', params.name);
  if (params.resourceType !== null) request = request.eq('resource_type', params.resourceType);
  if (params.runDuration !== null) request = request.gte('duration_millis', RUN_DURATIONS[params.runDuration]);
  const { data, count } = await (signal ? request.abortSignal(signal) : request).throwOnError().overrideTypes<JobHistoryEntry[], { merge: false }>();
  return { rows: data, totalCount: count ?? data.length };
}

export function useJobHistoriesQuery(params: JobHistoryParams) {
  return useQuery({
    queryKey: jobKeys.histories({
      name: params.name,
      resourceType: params.resourceType,
      status: params.status,
      runDuration: params.runDuration,
      range: rangeKey(params.timeRange),
      pageIndex: params.pageIndex,
      pageSize: params.pageSize,
      sortBy: params.sortBy,
      sortOrder: params.sortOrder,
    }),
    queryFn: ({ signal }) => getJobHistories(params, signal),
    placeholderData: keepPreviousData,
  });
}
