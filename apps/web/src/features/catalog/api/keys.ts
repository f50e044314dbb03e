import type { CatalogSummaryRequest } from '@opsdeck/shared';
import type { ConfigListQuery } from './get-configs';

/** Every catalog query key starts with `all`, so one invalidation refreshes whatever catalog list is open. */
export const catalogKeys = {
  all: ['catalog'] as const,
  summary: (request: CatalogSummaryRequest) => [...catalogKeys.all, 'summary', request] as const,
  configs: (query: ConfigListQuery) => [...catalogKeys.all, 'configs', query] as const,
  lookup: (view: string) => [...catalogKeys.all, 'lookup', view] as const,
};
