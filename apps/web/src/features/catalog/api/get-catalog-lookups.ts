import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import type { KeyValue } from '../utils/catalog-params';
import { catalogKeys } from './keys';

export interface ConfigTypeOption {
  type: string;
  config_class: string;
}

async function getConfigTypes(signal: AbortSignal): Promise<ConfigTypeOption[]> {
  const { data } = await db.from('config_types').select('type,config_class').order('type').abortSignal(signal).throwOnError().overrideTypes<ConfigTypeOption[], { merge: false }>();
  return data;
}

async function getConfigStatuses(signal: AbortSignal): Promise<string[]> {
  const { data } = await db.from('config_statuses').select('status').order('status').abortSignal(signal).throwOnError().overrideTypes<{ status: string }[], { merge: false }>();
  return data.map((row) => row.status);
}

/** Menus offer at most this many pairs: per-pod labels (pod-template-hash) run to thousands in a large estate. */
const KEY_VALUE_MENU_LIMIT = 1000;

async function getKeyValues(view: 'config_tags' | 'config_labels', signal: AbortSignal): Promise<KeyValue[]> {
  const { data } = await db.from(view).select('key,value').order('key').order('value').limit(KEY_VALUE_MENU_LIMIT).abortSignal(signal).throwOnError();
  return data;
}

/** The filter menus' choices; they change only when scrapers run, so they are asked for once every few minutes. */
export function useConfigTypesQuery() {
  return useQuery({ queryKey: catalogKeys.lookup('config_types'), queryFn: ({ signal }) => getConfigTypes(signal), staleTime: LOOKUP_STALE_TIME_MS });
}

export function useConfigStatusesQuery() {
  return useQuery({ queryKey: catalogKeys.lookup('config_statuses'), queryFn: ({ signal }) => getConfigStatuses(signal), staleTime: LOOKUP_STALE_TIME_MS });
}

export function useConfigTagsQuery() {
  return useQuery({ queryKey: catalogKeys.lookup('config_tags'), queryFn: ({ signal }) => getKeyValues('config_tags', signal), staleTime: LOOKUP_STALE_TIME_MS });
}

export function useConfigLabelsQuery() {
  return useQuery({ queryKey: catalogKeys.lookup('config_labels'), queryFn: ({ signal }) => getKeyValues('config_labels', signal), staleTime: LOOKUP_STALE_TIME_MS });
}
