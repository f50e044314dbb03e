import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { catalogInsightsKeys } from './keys';

export interface InsightFilterOption {
  value: string;
  label: string;
}

/** Menus offer at most this many choices; a large estate has thousands of components. */
const MENU_LIMIT = 1000;

async function configTypes(signal: AbortSignal): Promise<InsightFilterOption[]> {
  const { data } = await db.from('config_types').select('type').order('type').abortSignal(signal).throwOnError().overrideTypes<{ type: string }[], { merge: false }>();
  return data.map(({ type }) => ({ value: type, label: type }));
}

async function analyzers(signal: AbortSignal): Promise<InsightFilterOption[]> {
  const { data } = await db
    .from('config_analysis_analyzers')
    .select('analyzer')
    .order('analyzer')
    .abortSignal(signal)
    .throwOnError()
    .overrideTypes<{ analyzer: string }[], { merge: false }>();
  return data.map(({ analyzer }) => ({ value: analyzer, label: analyzer }));
}

async function components(signal: AbortSignal): Promise<InsightFilterOption[]> {
  const { data } = await db
    .from('components')
    .select('id,name')
    .is('deleted_at', null)
    .order('name')
    .limit(MENU_LIMIT)
    .abortSignal(signal)
    .throwOnError();
  return data.map(({ id, name }) => ({ value: id, label: name }));
}

const LOADERS = { configTypes, analyzers, components } as const;
export type InsightFilterOptionsName = keyof typeof LOADERS;

/** The choices of one filter menu; they change when scrapers and analyzers run, so they are kept a few minutes. */
export function useInsightFilterOptionsQuery(name: InsightFilterOptionsName, enabled = true) {
  return useQuery({
    queryKey: catalogInsightsKeys.options(name),
    queryFn: ({ signal }) => LOADERS[name](signal),
    staleTime: LOOKUP_STALE_TIME_MS,
    enabled,
  });
}
