/** One row of job_history as a Job History tab lists it. */
export interface JobHistoryEntry {
  id: string;
  name: string;
  status: string;
  time_start: string | null;
  duration_millis: number | null;
  success_count: number | null;
  error_count: number | null;
  created_at: string;
}
