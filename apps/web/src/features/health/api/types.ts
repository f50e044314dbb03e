import type { TableRow } from '@opsdeck/shared';

/** The canary service's answers, typed by the schemas the server declares them with (packages/shared health.ts). */
export type { CheckDetail, CheckHealth, CheckSeriesPoint, CheckSummary, GroupHealth, HealthSummary, SummaryGroup } from '@opsdeck/shared';

/** A row of check_statuses (spec 001 §3 'Status-check history entry'). */
export type CheckStatusEntry = Pick<TableRow<'check_statuses'>, 'check_id' | 'time' | 'status' | 'duration' | 'message' | 'error'>;
