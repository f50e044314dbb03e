import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { silentDb } from '@/lib/api/db';
import { jobKeys } from './keys';

/** Spec 001 §7: GET /job_history_names ordered by name, for the name filter. */
export async function getJobHistoryNames(signal?: AbortSignal): Promise<string[]> {
  const request = silentDb.from('job_history_names').select('name').order('name');
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError().overrideTypes<{ name: string }[], { merge: false }>();
  return data.map((row) => row.name);
}

export function useJobHistoryNamesQuery() {
  return useQuery({ queryKey: jobKeys.names(), queryFn: ({ signal }) => getJobHistoryNames(signal), staleTime: LOOKUP_STALE_TIME_MS });
}
