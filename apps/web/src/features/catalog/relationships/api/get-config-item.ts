import { useQuery } from '@tanstack/react-query';
import { CATALOG_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { relationshipKeys } from './keys';
import type { ConfigNodeItem } from './types';

/** The item the tab belongs to, drawn as the graph's centre; null when it does not exist (or is hidden from the user). */
export async function getConfigItem(configId: string, signal?: AbortSignal): Promise<ConfigNodeItem | null> {
  const request = db.from('configs').select('id,name,type,health,status,deleted_at').eq('id', configId).limit(1);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data[0] ?? null;
}

export function useConfigItemQuery(configId: string, enabled: boolean) {
  return useQuery({ queryKey: relationshipKeys.item(configId), queryFn: ({ signal }) => getConfigItem(configId, signal), staleTime: CATALOG_STALE_TIME_MS, enabled });
}
