import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { topologyKeys } from './keys';
import type { TopologyQuery, TopologyResponse } from './types';

/** How often an open topology view asks again, so card health follows the checks without a reload. */
export const TOPOLOGY_REFRESH_MS = 30_000;

/** GET /api/topology; absent fields are left out of the query string. */
export function getTopology(query: TopologyQuery, signal?: AbortSignal): Promise<TopologyResponse> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as [keyof TopologyQuery, string | undefined][]) {
    if (value !== undefined && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return requestJson<TopologyResponse>(text === '' ? '/api/topology' : `/api/topology?${text}`, { signal, silent: true });
}

export function useTopologyQuery(query: TopologyQuery) {
  return useQuery({
    queryKey: topologyKeys.topology(query),
    queryFn: ({ signal }) => getTopology(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: TOPOLOGY_REFRESH_MS,
  });
}
