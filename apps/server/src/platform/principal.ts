import type { Action, Resource, Role } from '@opsdeck/shared';

/** The signed-in person behind a request. Roles are read fresh from the database on every request. */
export interface Principal {
  personId: string;
  sessionId: string;
  name: string;
  email: string | null;
  roles: Role[];
}

/**
 * What a route needs: a (resource, action) pair, any signed-in user ('authenticated', for routes such as whoami or
 * the data API which checks each table itself), nobody ('public'), or a remote agent's bearer token ('agent': the route
 * authenticates the token itself, and no session is accepted there).
 */
export type RoutePermission = { resource: Resource; action: Action } | 'authenticated' | 'public' | 'agent';
