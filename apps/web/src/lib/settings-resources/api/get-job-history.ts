import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { settingsResourceKeys } from './keys';

/** Spec 001 §9: the Job History component shows 150 runs. */
export const JOB_HISTORY_LIMIT = 150;

export async function getJobHistory(resourceId: string, signal?: AbortSignal): Promise<JobHistoryEntry[]> {
  const query = db
    .from('job_history')
    .select('id,name,status,time_start,duration_millis,success_count,error_count,created_at,details')
    .eq('resource_id', resourceId)
    .order('created_at', { ascending: false })
    .limit(JOB_HISTORY_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useJobHistoryQuery(resourceId: string) {
  return useQuery({ queryKey: settingsResourceKeys.jobHistory(resourceId), queryFn: ({ signal }) => getJobHistory(resourceId, signal) });
}
