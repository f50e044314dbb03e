import type { Action, Resource, Role } from '@opsdeck/shared';

/** How the caller proved who they are: a browser session (cookie or session bearer token) or a personal API token. */
export type PrincipalVia = 'session' | 'api_token';

/**
 * The session id of a principal that came with an API token: the nil uuid, which no session has, so a route that
 * looks the session up (whoami, logout, kubeconfig, the settings flow) finds none and answers as for no session.
 */
export const NO_SESSION_ID = '00000000-0000-0000-0000-000000000000';

/** The signed-in person behind a request. Roles are read fresh from the database on every request. */
export interface Principal {
  personId: string;
  /** NO_SESSION_ID when `via` is 'api_token'. */
  sessionId: string;
  name: string;
  email: string | null;
  /** For an API token: its role, capped at what the owner holds now (auth/sessions/authenticator.ts). */
  roles: Role[];
  via: PrincipalVia;
  /** The token's id when `via` is 'api_token'. */
  apiTokenId?: string;
}

/**
 * What a route needs: a (resource, action) pair, any signed-in user ('authenticated', for routes such as whoami or
 * the data API which checks each table itself), nobody ('public'), or a remote agent's bearer token ('agent': the route
 * authenticates the token itself, and no session is accepted there).
 */
export type RoutePermission = { resource: Resource; action: Action } | 'authenticated' | 'public' | 'agent';
