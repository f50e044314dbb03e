import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CONNECTIONS_URL } from '@/lib/api/connection-refs';
import { requestJson } from '@/lib/api/http';
import { connectionsKeys, type ConnectionListParams } from './keys';
import type { ConnectionPage } from './types';

export async function getConnections({ pageIndex, pageSize }: ConnectionListParams, signal?: AbortSignal): Promise<ConnectionPage> {
  const query = new URLSearchParams({ limit: String(pageSize), offset: String(pageIndex * pageSize) });
  return requestJson<ConnectionPage>(`${CONNECTIONS_URL}?${query.toString()}`, { signal });
}

export function useConnectionsQuery(params: ConnectionListParams) {
  return useQuery({
    queryKey: connectionsKeys.list(params),
    queryFn: ({ signal }) => getConnections(params, signal),
    placeholderData: keepPreviousData,
  });
}
