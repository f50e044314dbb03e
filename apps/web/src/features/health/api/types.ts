/** The canary service's answers, typed by the schemas the server declares them with (packages/shared health.ts). */
export type { CheckDetail, CheckHealth, CheckSeriesPoint, CheckSummary, GroupHealth, HealthSummary, SummaryGroup } from '@opsdeck/shared';

/** A row of check_statuses (spec 001 §3 'Status-check history entry'). */
export interface CheckStatusEntry {
  check_id: string;
  time: string;
  status: boolean;
  duration: number | null;
  message: string | null;
  error: string | null;
}
