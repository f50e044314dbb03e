import type { RowWith, TableRow, ViewRow } from '@opsdeck/shared';
import type { AgentRef } from '@/lib/resource-origin/resource-origin';

/**
 * One row of job_history as the Job History tab and page list it; the page's view (job_histories) adds the resource and
 * its agent. `details` holds {errors, scrape_summary, summary} as the writer left them (spec 001 §3), read through
 * job-details.ts.
 */
export type JobHistoryEntry = Pick<
  TableRow<'job_history'>,
  'id' | 'name' | 'status' | 'time_start' | 'duration_millis' | 'success_count' | 'error_count' | 'created_at' | 'details'
> &
  Partial<RowWith<Pick<ViewRow<'job_histories'>, 'resource_type' | 'resource_id' | 'resource_name' | 'agent'>, { agent: AgentRef | null }>>;
