import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { relationshipKeys } from './keys';
import type { ManualLink } from './types';

/** The links people made from or to this item; only these may be unlinked (the server refuses the others). */
export async function getManualLinks(configId: string, signal?: AbortSignal): Promise<ManualLink[]> {
  const request = db
    .from('config_relationships')
    .select('config_id,related_id')
    .eq('selector_id', 'manual')
    .is('deleted_at', null)
    .or(`config_id.eq.${configId},related_id.eq.${configId}`);
  const { data } = await (signal ? request.abortSignal(signal) : request).throwOnError();
  return data;
}

export function useManualLinksQuery(configId: string, enabled: boolean) {
  return useQuery({ queryKey: relationshipKeys.manualLinks(configId), queryFn: ({ signal }) => getManualLinks(configId, signal), enabled });
}
