import type { CatalogSummaryRequest } from '@opsdeck/shared';
import type { KeyValue } from '../utils/catalog-params';
import type { ConfigSortColumn, RANK_SORT } from './config-sort';

export interface ConfigListQuery {
  configType: string;
  labels: Record<string, string>;
  tagsInclude: Record<string, string>;
  tagsExclude: KeyValue[];
  search: string;
  health: { include: string[]; exclude: string[] };
  status: { include: string[]; exclude: string[] };
  hideDeleted: boolean;
  sortBy: ConfigSortColumn | typeof RANK_SORT;
  ascending: boolean;
}

/** Every catalog query key starts with `all`, so one invalidation refreshes whatever catalog list is open. */
export const catalogKeys = {
  all: ['catalog'] as const,
  summary: (request: CatalogSummaryRequest) => [...catalogKeys.all, 'summary', request] as const,
  configs: (query: ConfigListQuery) => [...catalogKeys.all, 'configs', query] as const,
  lookup: (view: string) => [...catalogKeys.all, 'lookup', view] as const,
};
