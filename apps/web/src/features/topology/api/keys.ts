import type { TopologyQuery } from './types';

/** Every topology query key starts with `all`, so one invalidation refreshes whatever topology view is open. */
export const topologyKeys = {
  all: ['topology'] as const,
  topology: (query: TopologyQuery) => [...topologyKeys.all, 'components', query] as const,
  pathNames: (ids: readonly string[]) => [...topologyKeys.all, 'path-names', ids] as const,
};
