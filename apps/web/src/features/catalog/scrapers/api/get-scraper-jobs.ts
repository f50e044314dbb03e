import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { scraperKeys } from './keys';
import type { ScraperJob } from './types';

/** Spec 001 §9: the job history page size. */
export const JOB_HISTORY_LIMIT = 50;

/** How often the tab asks again while a run it started has not finished. */
export const RUN_POLL_MS = 2_000;

export async function getScraperJobs(scraperId: string, signal?: AbortSignal): Promise<ScraperJob[]> {
  const query = db
    .from('job_history')
    .select('id,name,status,time_start,duration_millis,success_count,error_count,created_at,details')
    .eq('resource_id', scraperId)
    .order('created_at', { ascending: false })
    .limit(JOB_HISTORY_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

/**
 * Whether a run asked for after `baseline` (the newest job id then, null when there was none) is still to show up or
 * still running. The ids are compared rather than times, so a server clock that differs from the browser's is no matter.
 */
export function isRunPending(jobs: readonly ScraperJob[] | undefined, baseline: string | null): boolean {
  const newest = jobs?.[0];
  if (newest === undefined) return true;
  return newest.id === baseline || newest.status === 'RUNNING';
}

/**
 * Whether the tab should ask again: a run it asked for (`awaitingRunAfter`, see isRunPending) has not ended, or the
 * newest listed run is still RUNNING, whoever started it (the first run of a new scraper, the schedule), so a running
 * row never stays RUNNING on screen after the run ended.
 */
export function shouldPollJobs(jobs: readonly ScraperJob[] | undefined, awaitingRunAfter: string | null | undefined): boolean {
  if (awaitingRunAfter !== undefined && isRunPending(jobs, awaitingRunAfter)) return true;
  return jobs?.[0]?.status === 'RUNNING';
}

/** The scraper's runs, asked for again every RUN_POLL_MS while shouldPollJobs says so. */
export function useScraperJobsQuery(scraperId: string, awaitingRunAfter: string | null | undefined) {
  return useQuery({
    queryKey: scraperKeys.jobs(scraperId),
    queryFn: ({ signal }) => getScraperJobs(scraperId, signal),
    refetchInterval: (query) => (shouldPollJobs(query.state.data, awaitingRunAfter) ? RUN_POLL_MS : false),
  });
}
