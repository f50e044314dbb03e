import { DEFAULT_PAGE_SIZE, decodeTristate } from '@opsdeck/shared';

/** Spec 002 §2.1 and §9: insights tables and panels ask for 50 rows at a time. */
export const INSIGHTS_PAGE_SIZE = DEFAULT_PAGE_SIZE;
/** Spec 002 §2.1: a panel asks for its next page once the reader is this close to the end. */
export const LOAD_MORE_WITHIN_PX = 300;
/** Spec 002 §2.1: a message longer than this shows its start until the reader asks for the rest. */
export const MESSAGE_PREVIEW_CHARS = 500;

/** Spec 002 §3: the analysis types and the states a finding moves through. */
export const ANALYSIS_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technical_debt',
  'reliability',
  'recommendation',
  'other',
] as const;
export const ANALYSIS_STATUSES = ['open', 'resolved', 'silenced'] as const;

/** Columns the server may order by; each is a plain column of config_analysis_items. */
export const INSIGHT_SORTS = ['first_observed', 'last_observed', 'config_name', 'analysis_type', 'analyzer', 'severity', 'status'] as const;
export type InsightSort = (typeof INSIGHT_SORTS)[number];
export const DEFAULT_INSIGHT_SORT: InsightSort = 'first_observed';

export function isInsightSort(value: string): value is InsightSort {
  return (INSIGHT_SORTS as readonly string[]).includes(value);
}

/** The list filters, each a tristate selection in the URL form `a:1,b:-1` except the single component id. */
export interface InsightFilters {
  configType: string;
  analysisType: string;
  severity: string;
  analyzer: string;
  status: string;
  component: string;
}

export type InsightFilterName = keyof InsightFilters;

export interface InsightsParams extends InsightFilters {
  pageIndex: number;
  pageSize: number;
  sortBy: InsightSort;
  sortOrder: 'asc' | 'desc';
}

/** Query parameter of each filter; the names follow the other catalog pages (configType, severity). */
export const INSIGHT_PARAM_NAMES: Readonly<Record<InsightFilterName, string>> = {
  configType: 'configType',
  analysisType: 'type',
  severity: 'severity',
  analyzer: 'analyzer',
  status: 'status',
  component: 'component',
};

function nonNegativeInt(text: string | null, fallback: number): number {
  if (text === null || !/^\d+$/.test(text)) return fallback;
  return Number(text);
}

export function parseInsightsParams(search: URLSearchParams): InsightsParams {
  const filter = (name: InsightFilterName) => search.get(INSIGHT_PARAM_NAMES[name]) ?? '';
  const sortBy = search.get('sortBy') ?? '';
  const pageSize = nonNegativeInt(search.get('pageSize'), INSIGHTS_PAGE_SIZE);
  return {
    configType: filter('configType'),
    analysisType: filter('analysisType'),
    severity: filter('severity'),
    analyzer: filter('analyzer'),
    status: filter('status'),
    component: filter('component'),
    pageIndex: nonNegativeInt(search.get('pageIndex'), 0),
    pageSize: pageSize > 0 ? pageSize : INSIGHTS_PAGE_SIZE,
    sortBy: isInsightSort(sortBy) ? sortBy : DEFAULT_INSIGHT_SORT,
    sortOrder: search.get('sortOrder') === 'asc' ? 'asc' : 'desc',
  };
}

export interface IncludeExclude {
  include: string[];
  exclude: string[];
}

/** A tristate URL value as the values to keep and the values to leave out. */
export function splitTristate(value: string): IncludeExclude {
  const entries = Object.entries(decodeTristate(value));
  return {
    include: entries.filter(([, state]) => state === 1).map(([name]) => name),
    exclude: entries.filter(([, state]) => state === -1).map(([name]) => name),
  };
}
