import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';
import { featureFlagsKeys } from './keys';
import type { FeatureFlag } from './types';

export const FEATURE_FLAG_SELECT = '*,creator:people!properties_created_by_fkey(id,name,avatar)';

export async function getFeatureFlags(signal?: AbortSignal): Promise<FeatureFlag[]> {
  const query = db.from('properties').select(FEATURE_FLAG_SELECT).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export function useFeatureFlagsQuery() {
  return useQuery({ queryKey: featureFlagsKeys.list(), queryFn: ({ signal }) => getFeatureFlags(signal) });
}
