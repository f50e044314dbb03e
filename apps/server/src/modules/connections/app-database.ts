import type pg from 'pg';

/**
 * A postgres connection whose property `embedded` is 'true' targets this server's own database: the embedded
 * PGlite socket changes on every start, so the address is taken from the running pool rather than stored.
 */
export function isAppDatabaseConnection(connection: { type: string; properties: Record<string, string> }): boolean {
  return connection.type === 'postgres' && connection.properties.embedded === 'true';
}

/**
 * The pool itself rather than a fresh client: embedded PGlite has one backend, and a second connection's messages
 * could land between the pool's Parse and Bind and replace its unnamed statement.
 */
export function appDatabaseTarget(pool: pg.Pool): pg.Pool {
  return pool;
}
