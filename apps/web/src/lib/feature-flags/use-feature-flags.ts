import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { disabledFeatures, featureDisableProperty, type Feature, type PropertyLike } from '@opsdeck/shared';
import { db } from '@/lib/api/db';

export const featureFlagKeys = {
  all: ['feature-flags'] as const,
  disabled: () => [...featureFlagKeys.all, 'disabled'] as const,
};

export async function fetchDisableProperties(signal: AbortSignal): Promise<PropertyLike[]> {
  const { data } = await db
    .from('properties')
    .select('name,value')
    .like('name', featureDisableProperty('*'))
    .abortSignal(signal)
    .throwOnError();
  return data;
}

export interface FeatureFlags {
  isEnabled(feature: Feature): boolean;
  disabled: ReadonlySet<string>;
  isLoading: boolean;
  isError: boolean;
}

const NONE: ReadonlySet<string> = new Set();

/** Which areas the `{feature}.disable` properties switch off, with parents cascading to their settings pages. */
export function useFeatureFlags(): FeatureFlags {
  const query = useQuery({ queryKey: featureFlagKeys.disabled(), queryFn: ({ signal }) => fetchDisableProperties(signal) });
  const disabled = useMemo(() => (query.data === undefined ? NONE : disabledFeatures(query.data)), [query.data]);
  const isEnabled = useCallback((feature: Feature) => !disabled.has(feature), [disabled]);
  return { isEnabled, disabled, isLoading: query.isPending, isError: query.isError };
}
