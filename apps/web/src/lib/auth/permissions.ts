import { useMemo } from 'react';
import { can as roleCan, isAdmin, isViewerOnly, effectiveRoles, type Action, type Resource, type Role } from '@opsdeck/shared';
import { useSession } from './session';

export interface Permissions {
  can(resource: Resource, action: Action): boolean;
  isAdmin: boolean;
  /** True when viewer is the user's only role; such users never see the Settings submenu. */
  isViewer: boolean;
  roles: Role[];
  /** False until the session has loaded; until then nothing is allowed. */
  isReady: boolean;
}

/** Permissions derived from a list of role names with the shared role table. */
export function permissionsFromRoles(roles: readonly string[] | undefined): Permissions {
  if (roles === undefined) {
    return { can: () => false, isAdmin: false, isViewer: true, roles: [], isReady: false };
  }
  return {
    can: (resource, action) => roleCan(roles, resource, action),
    isAdmin: isAdmin(roles),
    isViewer: isViewerOnly(roles),
    roles: effectiveRoles(roles),
    isReady: true,
  };
}

export function usePermissions(): Permissions {
  const { data } = useSession();
  const roles = data?.roles;
  return useMemo(() => permissionsFromRoles(roles), [roles]);
}
