import { useQuery } from '@tanstack/react-query';
import { LOG_LINES_MAX_LIMIT, type LogsResponse } from '@opsdeck/shared';
import { requestJson } from '@/lib/api/http';
import { logsKeys, type LogsQuery } from './keys';

/**
 * The newest lines the page asks for first. All of a busy stream (up to 100,000 lines, about 15 MB) takes the server
 * most of a second and the browser as long again to read; the first page is on screen in tens of milliseconds, and
 * the rest follows.
 */
export const LOG_FIRST_PAGE_LINES = 500;

/** GET /api/logs: the newest `limit` lines of a selector matching the search over the time range. */
export function getLogs({ id, name, query, start }: LogsQuery, limit: number, signal?: AbortSignal): Promise<LogsResponse> {
  const search = new URLSearchParams({ id, name });
  if (query !== '') search.set('query', query);
  search.set('start', start);
  search.set('limit', String(limit));
  return requestJson<LogsResponse>(`/api/logs?${search.toString()}`, { signal });
}

function sameStream(a: LogsQuery, b: unknown): boolean {
  return typeof b === 'object' && b !== null && 'id' in b && 'name' in b && b.id === a.id && b.name === a.name;
}

// A refetch is a new answer whose line ids may differ; the Refresh button asks for one, focus and reconnect do not.
const ASKED_ONLY = { refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: 0 } as const;

/** The lines of one selector as the page shows them: the answer, and whether the rest of it is still on its way. */
export interface LogsView {
  data: LogsResponse | undefined;
  error: Error | null;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  /** The lines on screen belong to the previous search or time range of the same stream, while the new ones load. */
  isPlaceholderData: boolean;
  /** The first page is shown and the rest of the answer (up to the call's limit) is loading. */
  isLoadingRest: boolean;
  /** Why the rest of the answer could not be read; the first page stays on screen. */
  restError: Error | null;
  refetch: () => Promise<void>;
}

/**
 * The lines of one selector, or nothing while `query` is null: the newest LOG_FIRST_PAGE_LINES first, then, when the
 * first page says there are more, every line the call answers, so the virtualized table scrolls through them and the
 * label chips filter them without another round trip. While a new search or time range loads, the previous answer of
 * the same component and selector stays on screen; another stream's lines never stand in for it.
 */
export function useLogsQuery(query: LogsQuery | null): LogsView {
  const first = useQuery({
    queryKey: query === null ? [...logsKeys.all, 'lines', null] : logsKeys.lines(query, 'first'),
    queryFn: ({ signal }) => (query === null ? Promise.reject(new Error('No log stream chosen')) : getLogs(query, LOG_FIRST_PAGE_LINES, signal)),
    enabled: query !== null,
    placeholderData: (previous, previousQuery) => (query !== null && sameStream(query, previousQuery?.queryKey[2]) ? previous : undefined),
    ...ASKED_ONLY,
  });
  const wantsRest = query !== null && first.data !== undefined && !first.isPlaceholderData && first.data.truncated;
  const rest = useQuery({
    queryKey: query === null ? [...logsKeys.all, 'lines', null, 'all'] : logsKeys.lines(query, 'all'),
    queryFn: ({ signal }) => (query === null ? Promise.reject(new Error('No log stream chosen')) : getLogs(query, LOG_LINES_MAX_LIMIT, signal)),
    enabled: wantsRest,
    ...ASKED_ONLY,
  });
  const whole = wantsRest && rest.data !== undefined ? rest.data : undefined;
  return {
    data: whole ?? first.data,
    error: first.error,
    isPending: first.isPending,
    isError: first.isError,
    isFetching: first.isFetching || (wantsRest && rest.isFetching),
    isPlaceholderData: first.isPlaceholderData,
    // Pending as well as fetching: the render the rest is enabled in has not started its fetch yet.
    isLoadingRest: wantsRest && whole === undefined && !rest.isError,
    restError: wantsRest && whole === undefined ? rest.error : null,
    refetch: async () => {
      const answer = await first.refetch();
      if (answer.data?.truncated === true) await rest.refetch();
    },
  };
}
