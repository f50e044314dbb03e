import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TIME_RANGE_MINUTES } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { healthKeys, type CheckHistoryParams } from './keys';
import type { CheckStatusEntry } from './types';

/** Spec 001 §9. */
export const HISTORY_PAGE_SIZE = 50;
export const HISTORY_STALE_TIME_MS = 10_000;

export interface CheckHistoryPage {
  rows: CheckStatusEntry[];
  totalEntries: number;
}

/** GET /check_statuses as spec 002 §7 lays it out: newest first, counted exactly, one page of 50. */
export async function getCheckHistory(params: CheckHistoryParams, signal?: AbortSignal, now: Date = new Date()): Promise<CheckHistoryPage> {
  const since = new Date(now.getTime() - TIME_RANGE_MINUTES[params.range] * 60_000).toISOString();
  let query = db
    .from('check_statuses')
    .select('check_id,time,status,duration,message,error', { count: 'exact' })
    .eq('check_id', params.checkId)
    .gt('time', since);
  if (params.status !== 'all') query = query.eq('status', params.status === 'healthy');
  if (params.minDurationMs !== null) query = query.gte('duration', params.minDurationMs);
  const from = params.pageIndex * HISTORY_PAGE_SIZE;
  const ranged = query.order('time', { ascending: false }).range(from, from + HISTORY_PAGE_SIZE - 1);
  const { data, count } = await (signal ? ranged.abortSignal(signal) : ranged).throwOnError();
  return { rows: data, totalEntries: count ?? data.length };
}

export interface CheckHistoryOptions {
  /** Poll period while waiting for a run the user started; false otherwise. */
  refetchIntervalMs?: number | false;
}

export function useCheckHistoryQuery(params: CheckHistoryParams, { refetchIntervalMs = false }: CheckHistoryOptions = {}) {
  return useQuery({
    queryKey: healthKeys.history(params),
    queryFn: ({ signal }) => getCheckHistory(params, signal),
    placeholderData: keepPreviousData,
    staleTime: HISTORY_STALE_TIME_MS,
    refetchInterval: refetchIntervalMs,
  });
}
