import type { InsightFilters, InsightSort } from '../insight-params';

export interface InsightListQuery extends InsightFilters {
  /** Set on a config's own Insights tab. */
  configId: string | null;
  sortBy: InsightSort;
  ascending: boolean;
}

/** Under the catalog's root key, so refreshing the catalog refreshes the insights with it. */
export const catalogInsightsKeys = {
  all: ['catalog', 'insights'] as const,
  page: (query: InsightListQuery, pageIndex: number, pageSize: number) => [...catalogInsightsKeys.all, 'page', query, pageIndex, pageSize] as const,
  infinite: (query: InsightListQuery) => [...catalogInsightsKeys.all, 'infinite', query] as const,
  options: (name: string) => [...catalogInsightsKeys.all, 'options', name] as const,
};
