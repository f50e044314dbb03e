import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { TAG_SEPARATOR } from '../change-params';
import { catalogChangesKeys } from './keys';

export interface ChangeFilterOption {
  value: string;
  label: string;
}

async function configTypes(signal: AbortSignal): Promise<ChangeFilterOption[]> {
  const { data } = await db.from('config_types').select('type').order('type').abortSignal(signal).throwOnError().overrideTypes<{ type: string }[], { merge: false }>();
  return data.map(({ type }) => ({ value: type, label: type }));
}

async function changeTypes(signal: AbortSignal): Promise<ChangeFilterOption[]> {
  const { data } = await db
    .from('change_types')
    .select('change_type')
    .order('change_type')
    .abortSignal(signal)
    .throwOnError()
    .overrideTypes<{ change_type: string }[], { merge: false }>();
  return data.map(({ change_type }) => ({ value: change_type, label: change_type }));
}

/** Tag pairs in the URL form `key____value`, labelled `key: value`. */
async function tags(signal: AbortSignal): Promise<ChangeFilterOption[]> {
  const { data } = await db
    .from('config_tags')
    .select('key,value')
    .order('key')
    .order('value')
    .abortSignal(signal)
    .throwOnError();
  return data.map(({ key, value }) => ({ value: `${key}${TAG_SEPARATOR}${value}`, label: `${key}: ${value}` }));
}

async function people(signal: AbortSignal): Promise<ChangeFilterOption[]> {
  const { data } = await db.from('people').select('id,name').order('name').abortSignal(signal).throwOnError();
  return data.map(({ id, name }) => ({ value: id, label: name }));
}

const LOADERS = { configTypes, changeTypes, tags, people } as const;
export type ChangeFilterOptionsName = keyof typeof LOADERS;

/** The choices of one filter; the lists change rarely, so they are kept for the lookup freshness. */
export function useChangeFilterOptionsQuery(name: ChangeFilterOptionsName) {
  return useQuery({
    queryKey: catalogChangesKeys.options(name),
    queryFn: ({ signal }) => LOADERS[name](signal),
    staleTime: LOOKUP_STALE_TIME_MS,
  });
}
