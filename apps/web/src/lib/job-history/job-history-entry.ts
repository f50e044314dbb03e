/** One row of job_history as the Job History tab and page list it; the page's view adds the resource and agent. */
export interface JobHistoryEntry {
  id: string;
  name: string;
  status: string;
  time_start: string | null;
  duration_millis: number | null;
  success_count: number | null;
  error_count: number | null;
  created_at: string;
  /** {errors, scrape_summary, summary} as the writer left them (spec 001 §3); read through job-details.ts. */
  details: unknown;
  resource_type?: string | null;
  resource_id?: string | null;
  resource_name?: string | null;
  agent?: { id: string; name: string } | null;
}
