import { useQuery } from '@tanstack/react-query';
import { silentDb } from '@/lib/api/db';
import { configDetailKeys } from './keys';

/**
 * Whether a log backend route matches the item: it is a row of `config_items_with_logs` (migration 0130), the view the
 * logs page offers items from and whose selectors the logs call reads.
 */
export async function getConfigHasLogs(id: string, signal?: AbortSignal): Promise<boolean> {
  const query = silentDb.from('config_items_with_logs').select('id').eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data.length > 0;
}

/** Asked only when the page could offer the logs (the area is on and the user may read log backends). */
export function useConfigHasLogsQuery(id: string, enabled: boolean) {
  return useQuery({
    queryKey: configDetailKeys.logs(id),
    queryFn: ({ signal }) => getConfigHasLogs(id, signal),
    enabled,
  });
}
