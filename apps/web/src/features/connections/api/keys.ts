import type { QueryClient } from '@tanstack/react-query';
import { connectionRefsKeys } from '@/lib/api/connection-refs';

export interface ConnectionListParams {
  pageIndex: number;
  pageSize: number;
}

export const connectionsKeys = {
  all: ['settings', 'connections'] as const,
  lists: () => [...connectionsKeys.all, 'list'] as const,
  list: (params: ConnectionListParams) => [...connectionsKeys.lists(), params] as const,
};

/** After a write: the Connections table and the connection suggestions of the health-check forms. */
export async function invalidateConnectionLists(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: connectionsKeys.lists() }), queryClient.invalidateQueries({ queryKey: connectionRefsKeys.all })]);
}
