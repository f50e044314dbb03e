import type { TimeRangeKey } from '@opsdeck/shared';
import type { CheckHealth } from './types';

/** The health the summary filters on; a warning passes now but failed at least once in the time range. */
export type SummaryStatus = CheckHealth;

export type SummarySortKey = 'name' | 'status' | 'uptime' | 'latency' | 'last_transition_time';

export interface HealthSummaryParams {
  timeRange: string;
  query: string;
  /** Label filters in the query form: `key=value` included, `!key=value` excluded. */
  labels: string;
  hidePassing: boolean;
  statuses: SummaryStatus[];
  groupBy: string | null;
  tabBy: string;
  tab: string;
  sortBy: SummarySortKey | null;
  sortDesc: boolean;
  pageIndex: number;
  /** Null asks for every matching check, which grouping needs to fill its groups. */
  pageSize: number | null;
  /** With groupBy, the groups whose checks to fetch (the table's open ones); null fetches every group's checks. */
  groups: string[] | null;
}

export type HistoryStatusFilter = 'all' | 'healthy' | 'unhealthy';

export interface CheckHistoryParams {
  checkId: string;
  range: TimeRangeKey;
  status: HistoryStatusFilter;
  /** Minimum duration in ms, or null for All. */
  minDurationMs: number | null;
  pageIndex: number;
}

export const healthKeys = {
  all: ['health'] as const,
  summaries: () => [...healthKeys.all, 'summary'] as const,
  summary: (params: HealthSummaryParams) => [...healthKeys.summaries(), params] as const,
  check: (checkId: string) => [...healthKeys.all, 'check', checkId] as const,
  details: (checkId: string) => [...healthKeys.check(checkId), 'detail'] as const,
  detail: (checkId: string, range: string) => [...healthKeys.details(checkId), range] as const,
  artifacts: (checkId: string) => [...healthKeys.check(checkId), 'artifacts'] as const,
  history: (params: CheckHistoryParams) => [...healthKeys.check(params.checkId), 'history', params] as const,
};
