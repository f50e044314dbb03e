export const ROLES = ['admin', 'editor', 'commander', 'responder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'feature_flags',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
  'audit',
] as const;
export type Resource = (typeof RESOURCES)[number];

/**
 * `execute` is running code the user writes on the server (exec checks, later exec playbook actions and scrapers):
 * only admins hold it, whatever the resource, since such code acts with the server's reach.
 */
export type Action = 'read' | 'write' | 'execute';

export interface Permission {
  resource: Resource;
  action: Action;
}

const RESTRICTED: ReadonlySet<Resource> = new Set<Resource>(['rbac', 'identities', 'connections']);
/** Who did what is for admins alone: the trail names every person and what they touched (#19). */
const ADMIN_ONLY: ReadonlySet<Resource> = new Set<Resource>(['audit']);
const RESPONDER_WRITES: ReadonlySet<Resource> = new Set<Resource>(['responder', 'incident', 'evidences', 'comments']);

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Roles that are not known are dropped; no known role at all means viewer (spec 000 §6). */
export function effectiveRoles(roles: readonly string[]): Role[] {
  const known = roles.filter(isRole);
  return known.length > 0 ? known : ['viewer'];
}

function roleAllows(role: Role, resource: Resource, action: Action): boolean {
  if (action === 'execute' || ADMIN_ONLY.has(resource)) return role === 'admin';
  switch (role) {
    case 'admin':
      return true;
    case 'editor':
      return action === 'read' || !RESTRICTED.has(resource);
    case 'commander':
    case 'responder':
      return action === 'read' ? !RESTRICTED.has(resource) : RESPONDER_WRITES.has(resource);
    case 'viewer':
      return action === 'read' && !RESTRICTED.has(resource);
  }
}

export function can(roles: readonly string[], resource: Resource, action: Action): boolean {
  return effectiveRoles(roles).some((role) => roleAllows(role, resource, action));
}

/** Higher ranks hold every permission of the lower ones; an API token's role may not rank above its owner's. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 0, responder: 1, commander: 2, editor: 3, admin: 4 };

/** The highest-ranked of these roles (viewer when none is known). */
export function highestRole(roles: readonly string[]): Role {
  return effectiveRoles(roles).reduce<Role>((best, role) => (ROLE_RANK[role] > ROLE_RANK[best] ? role : best), 'viewer');
}

export function isAdmin(roles: readonly string[]): boolean {
  return effectiveRoles(roles).includes('admin');
}

/** True when the viewer role is the only one the user holds, which hides the Settings submenu. */
export function isViewerOnly(roles: readonly string[]): boolean {
  const effective = effectiveRoles(roles);
  return effective.every((role) => role === 'viewer');
}
