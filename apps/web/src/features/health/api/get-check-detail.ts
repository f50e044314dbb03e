import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { healthKeys } from './keys';
import type { CheckDetail } from './types';

/** Uptime, latency, the Health Overview series and relationships of one check over a time range. */
export async function getCheckDetail(checkId: string, range: string, signal?: AbortSignal): Promise<CheckDetail> {
  const search = new URLSearchParams({ check: checkId, start: range });
  return requestJson<CheckDetail>(`/api/canary/api/details?${search.toString()}`, { signal });
}

export function useCheckDetailQuery(checkId: string, range: string) {
  return useQuery({
    queryKey: healthKeys.detail(checkId, range),
    queryFn: ({ signal }) => getCheckDetail(checkId, range, signal),
    placeholderData: keepPreviousData,
  });
}
