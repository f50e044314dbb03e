import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS, type PublicConnection } from '@opsdeck/shared';
import { requestJson } from './http';

export const CONNECTIONS_URL = '/api/canary/connections';

/** How many stored connections a form suggests; a longer list is narrowed by typing. */
const SUGGESTION_LIMIT = 200;

/** The reference a spec uses to name a stored connection (resolved by the server's connection store). */
export function connectionRef(connection: Pick<PublicConnection, 'namespace' | 'name'>): string {
  return `connection://${connection.namespace}/${connection.name}`;
}

export const connectionRefsKeys = {
  all: ['connections', 'refs'] as const,
  ofType: (type: string | null) => [...connectionRefsKeys.all, type] as const,
};

/** The references of the stored connections, of one type or of all, for a form to suggest. */
export async function getConnectionRefs(type: string | null, signal?: AbortSignal): Promise<string[]> {
  const query = new URLSearchParams({ limit: String(SUGGESTION_LIMIT), ...(type === null ? {} : { type }) });
  const page = await requestJson<{ data: PublicConnection[] }>(`${CONNECTIONS_URL}?${query.toString()}`, { signal, silent: true });
  return page.data.map(connectionRef);
}

/**
 * Suggestions only: when they cannot be read (a role without read permission on connections) the form goes without
 * them, quietly and without retrying, and still takes a typed reference.
 */
export function useConnectionRefsQuery(type: string | null) {
  return useQuery({
    queryKey: connectionRefsKeys.ofType(type),
    queryFn: ({ signal }) => getConnectionRefs(type, signal),
    staleTime: LOOKUP_STALE_TIME_MS,
    retry: false,
  });
}
