import type { RowWith, ViewRow } from '@opsdeck/shared';
import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { configDetailKeys } from './keys';

/** A row of `check_summary_for_config`: a health check linked to the item, with its last day's uptime and latency. */
export type ConfigCheck = RowWith<
  Pick<ViewRow<'check_summary_for_config'>, 'id' | 'name' | 'type' | 'namespace' | 'status' | 'severity' | 'last_runtime' | 'last_transition_time' | 'uptime' | 'latency'>,
  { uptime: { passed: number; failed: number } | null; latency: { p95: number | null } | null }
>;

const CONFIG_CHECK_SELECT = 'id,name,type,namespace,status,severity,last_runtime,last_transition_time,uptime,latency';

export async function getConfigChecks(configId: string, signal?: AbortSignal): Promise<ConfigCheck[]> {
  const query = silentDb.from('check_summary_for_config').select(CONFIG_CHECK_SELECT).eq('config_id', configId).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ConfigCheck[], { merge: false }>();
  return data;
}

export function useConfigChecksQuery(configId: string) {
  return useQuery({ queryKey: configDetailKeys.checks(configId), queryFn: ({ signal }) => getConfigChecks(configId, signal) });
}
