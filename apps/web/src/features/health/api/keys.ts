import type { CheckHistoryParams } from './get-check-history';
import type { HealthSummaryParams } from './get-health-summary';

export const healthKeys = {
  all: ['health'] as const,
  summaries: () => [...healthKeys.all, 'summary'] as const,
  summary: (params: HealthSummaryParams) => [...healthKeys.summaries(), params] as const,
  check: (checkId: string) => [...healthKeys.all, 'check', checkId] as const,
  details: (checkId: string) => [...healthKeys.check(checkId), 'detail'] as const,
  detail: (checkId: string, range: string) => [...healthKeys.details(checkId), range] as const,
  history: (params: CheckHistoryParams) => [...healthKeys.check(params.checkId), 'history', params] as const,
};
