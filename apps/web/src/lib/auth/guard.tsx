import type { ReactNode } from 'react';
import type { Action, Resource } from '@opsdeck/shared';
import { usePermissions } from './permissions';
import { UnauthorizedPanel } from './unauthorized-panel';

export interface GuardProps {
  resource: Resource;
  action: Action;
  /** Shown instead of the children when access is refused; nothing by default. Pass `unauthorized` for the panel. */
  fallback?: ReactNode | 'unauthorized';
  children: ReactNode;
}

/** Hides what the user's roles do not allow. The server still enforces it; this only avoids offering it. */
export function Guard({ resource, action, fallback = null, children }: GuardProps) {
  const { can, isReady } = usePermissions();
  if (!isReady) return null;
  if (can(resource, action)) return children;
  return fallback === 'unauthorized' ? <UnauthorizedPanel /> : fallback;
}
