import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS, type RowWith, type ViewRow } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import type { KeyValue } from '../utils/catalog-params';
import { catalogKeys } from './keys';

/**
 * A row of `config_types`. The view keeps only rows whose type is not null (a WHERE of its recursive walk, which the
 * generator does not read), and the class is a part of the type, so both are set.
 */
export type ConfigTypeOption = RowWith<ViewRow<'config_types'>, { type: string; config_class: string }>;

/** A row of `config_statuses`, set for the same reason: the view keeps only statuses that are not null. */
type ConfigStatusRow = RowWith<ViewRow<'config_statuses'>, { status: string }>;

async function getConfigTypes(signal: AbortSignal): Promise<ConfigTypeOption[]> {
  const { data } = await db.from('config_types').select('type,config_class').order('type').abortSignal(signal).throwOnError().overrideTypes<ConfigTypeOption[], { merge: false }>();
  return data;
}

async function getConfigStatuses(signal: AbortSignal): Promise<string[]> {
  const { data } = await db.from('config_statuses').select('status').order('status').abortSignal(signal).throwOnError().overrideTypes<ConfigStatusRow[], { merge: false }>();
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
