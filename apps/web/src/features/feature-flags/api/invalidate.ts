import type { QueryClient } from '@tanstack/react-query';
import { featureFlagKeys } from '@/lib/feature-flags/use-feature-flags';
import { featureFlagsKeys } from './keys';

/** Refreshes this screen's list and the shell's flags, so the sidebar follows a change at once. */
export async function invalidateFeatureFlags(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: featureFlagsKeys.all }),
    queryClient.invalidateQueries({ queryKey: featureFlagKeys.all }),
  ]);
}
