import { useEffect } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { healthKeys, type HealthSummaryParams } from './keys';
import type { HealthSummary } from './types';

export function summarySearchParams(params: HealthSummaryParams): URLSearchParams {
  const search = new URLSearchParams({ timeRange: params.timeRange, tabBy: params.tabBy });
  if (params.tab !== 'All') search.set('tab', params.tab);
  if (params.query.trim() !== '') search.set('query', params.query.trim());
  if (params.labels !== '') search.set('labels', params.labels);
  if (params.hidePassing) search.set('hidePassing', 'true');
  if (params.statuses.length > 0) search.set('status', params.statuses.join(','));
  if (params.groupBy !== null) search.set('groupBy', params.groupBy);
  if (params.groupBy !== null && params.groups !== null) search.set('groups', JSON.stringify(params.groups));
  if (params.sortBy !== null) {
    search.set('sortBy', params.sortBy);
    search.set('sortDesc', String(params.sortDesc));
  }
  if (params.pageSize !== null) {
    search.set('pageIndex', String(params.pageIndex));
    search.set('pageSize', String(params.pageSize));
  }
  return search;
}

export async function getHealthSummary(params: HealthSummaryParams, signal?: AbortSignal): Promise<HealthSummary> {
  return requestJson<HealthSummary>(`/api/canary/api/summary?${summarySearchParams(params).toString()}`, { signal });
}

export interface HealthSummaryOptions {
  /** Poll period in ms; 0 stops polling. */
  refreshIntervalMs: number;
  enabled?: boolean;
}

/**
 * The summary, polled at the chosen refresh rate. Each poll aborts a request still in flight (spec 001 §7), so a
 * slow summary over thousands of checks never stacks up behind itself.
 */
export function useHealthSummaryQuery(params: HealthSummaryParams, { refreshIntervalMs, enabled = true }: HealthSummaryOptions) {
  const query = useQuery({
    queryKey: healthKeys.summary(params),
    queryFn: ({ signal }) => getHealthSummary(params, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
  const { refetch } = query;
  useEffect(() => {
    if (!enabled || refreshIntervalMs <= 0) return undefined;
    const timer = setInterval(() => void refetch({ cancelRefetch: true }), refreshIntervalMs);
    return () => clearInterval(timer);
  }, [enabled, refetch, refreshIntervalMs]);
  return query;
}
