import { useQuery } from '@tanstack/react-query';
import { dynamicDb } from '@/lib/api/db';
import type { SettingsResourceKind } from '../settings-resource-kind';
import { settingsResourceKeys } from './keys';
import type { SettingsResourceRow } from './types';

/** Spec 001 §9: the generic list shows the newest 100. */
export const RESOURCE_LIST_LIMIT = 100;

export async function getResources(kind: SettingsResourceKind, signal?: AbortSignal): Promise<SettingsResourceRow[]> {
  const query = dynamicDb.from(kind.listView).select('*').is('deleted_at', null).order('created_at', { ascending: false }).limit(RESOURCE_LIST_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const rows: SettingsResourceRow[] = data;
  return rows;
}

export function useResourcesQuery(kind: SettingsResourceKind) {
  // Caching time 0 (spec 002 §7): a list opened after an edit elsewhere is always fetched again.
  return useQuery({ queryKey: settingsResourceKeys.list(kind.table), queryFn: ({ signal }) => getResources(kind, signal), staleTime: 0, gcTime: 0 });
}
