import { useMemo } from 'react';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { visibleNavigation, type VisibleNavigation } from './navigation';

export function useVisibleNavigation(): VisibleNavigation {
  const permissions = usePermissions();
  const { isEnabled } = useFeatureFlags();
  return useMemo(() => visibleNavigation({ permissions, isEnabled }), [permissions, isEnabled]);
}
