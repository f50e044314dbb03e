import type pg from 'pg';

/**
 * A postgres connection whose property `embedded` is 'true' targets this server's own database: the embedded
 * PGlite socket changes on every start, so the address is taken from the running pool rather than stored.
 */
export function isAppDatabaseConnection(connection: { type: string; properties: Record<string, string> }): boolean {
  return connection.type === 'postgres' && connection.properties.embedded === 'true';
}

/** Settings for a fresh client to the database the pool uses (a new session, not one of the pool's). */
export function appDatabaseTarget(pool: pg.Pool): pg.ClientConfig {
  const { host, port, user, database, connectionString, password } = pool.options;
  if (typeof connectionString === 'string') return { connectionString };
  return {
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(user === undefined ? {} : { user }),
    ...(database === undefined ? {} : { database }),
    ...(typeof password === 'string' ? { password } : {}),
  };
}
