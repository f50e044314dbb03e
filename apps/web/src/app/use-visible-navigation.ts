import { useMemo } from 'react';
import { useIsHostedMode } from '@/lib/auth/auth-mode';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { visibleNavigation, type VisibleNavigation } from './navigation';

export function useVisibleNavigation(): VisibleNavigation {
  const permissions = usePermissions();
  const { isEnabled } = useFeatureFlags();
  const isHostedMode = useIsHostedMode();
  return useMemo(() => visibleNavigation({ permissions, isEnabled, isHostedMode }), [permissions, isEnabled, isHostedMode]);
}
