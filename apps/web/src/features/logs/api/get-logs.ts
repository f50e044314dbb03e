import { useQuery } from '@tanstack/react-query';
import { LOG_LINES_MAX_LIMIT, type LogsResponse } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { logsKeys, type LogsQuery } from './keys';

/**
 * GET /api/logs. The page asks for the most lines the call answers, so the virtualized table can scroll through them
 * and the label chips filter them without another round trip.
 */
export function getLogs({ id, name, query, start }: LogsQuery, signal?: AbortSignal): Promise<LogsResponse> {
  const search = new URLSearchParams({ id, name });
  if (query !== '') search.set('query', query);
  search.set('start', start);
  search.set('limit', String(LOG_LINES_MAX_LIMIT));
  return requestJson<LogsResponse>(`/api/logs?${search.toString()}`, { signal });
}

function sameStream(a: LogsQuery, b: unknown): boolean {
  return typeof b === 'object' && b !== null && 'id' in b && 'name' in b && b.id === a.id && b.name === a.name;
}

/**
 * The lines of one selector, or nothing while `query` is null. While a new search or time range loads, the previous
 * answer of the same component and selector stays on screen; another stream's lines never stand in for it.
 */
export function useLogsQuery(query: LogsQuery | null) {
  return useQuery({
    queryKey: query === null ? [...logsKeys.all, 'lines', null] : logsKeys.lines(query),
    queryFn: ({ signal }) => (query === null ? Promise.reject(new Error('No log stream chosen')) : getLogs(query, signal)),
    enabled: query !== null,
    placeholderData: (previous, previousQuery) => (query !== null && sameStream(query, previousQuery?.queryKey[2]) ? previous : undefined),
    // A refetch is a new answer whose line ids may differ, which would drop the user's selection; the Refresh button asks.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: 0,
  });
}
