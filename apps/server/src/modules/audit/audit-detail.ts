/** Per-route audit settings, in the route's `config.audit`. */
export interface RouteAuditConfig {
  /** The resource to record when the route's permission does not name it ('authenticated' routes). */
  resource?: string;
  /** The action to record instead of the one the method and status suggest. */
  action?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: RouteAuditConfig;
  }
}
