import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './platform/config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { openMigrated } from './db/open-migrated';
import { EmbeddedVacuum } from './db/embedded-vacuum';
import { loadLocalProperties } from './platform/local-properties';
import { serverPackageRoot } from './platform/package-root';
import { EventBus } from './platform/event-bus';
import { createMetrics } from './platform/metrics';
import { buildServer, type RouteRecord } from './platform/http';
import type { AppContext } from './platform/context';
import { createAuthenticator } from './auth/sessions/authenticator';
import { forgedRequestReason } from './auth/shared/csrf';
import { domainPlugins } from './plugins';

export interface RunningApp {
  app: FastifyInstance;
  context: AppContext;
  routes: RouteRecord[];
  close(): Promise<void>;
}

function readVersion(): string {
  const file = path.join(serverPackageRoot(import.meta.url), 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

export interface CreateAppOptions {
  logger?: boolean;
  /** Log lines go here instead of stdout (ServerOptions.logStream). */
  logStream?: { write(line: string): void };
  /** An already-open database (tests share one per suite); otherwise one is opened from the config. */
  db?: Database;
  /**
   * Fills the migrated database before any worker starts (the demo data): the demo's health checks probe this server,
   * and a check run while the server seeds and does not listen yet would be recorded as a failure.
   */
  seed?: (db: Database) => Promise<void>;
  /** The caller will `app.listen` (AppContext.listens). */
  listens?: boolean;
}

/** PGlite has no autovacuum (ADR 0080); a worker process does its work, the API-only one leaves it to a worker. */
function startEmbeddedVacuum(db: Database, pollMs: number, parentLog: FastifyBaseLogger): EmbeddedVacuum {
  const log = parentLog.child({ module: 'embedded-vacuum' });
  const vacuum = new EmbeddedVacuum({
    pool: db.pool,
    pollMs,
    onVacuumed: (tables) => log.info({ tables }, 'vacuumed the embedded database'),
    onError: (error) => log.warn({ err: error }, 'vacuuming the embedded database failed'),
  });
  vacuum.start();
  return vacuum;
}

/** Opens the database, applies migrations and builds the HTTP server; nothing listens until `app.listen`. */
export async function createApp(config: Config, options: CreateAppOptions = {}): Promise<RunningApp> {
  // A new embedded database is created, migrated and seeded in a first worker and then opened again (ADR 0079), so the
  // memory creating it took is not kept for the life of the server.
  let seeded = false;
  const db =
    options.db ??
    (config.databaseUrl === undefined
      ? await openMigrated(
          { dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs },
          {
            prepare: async (first) => {
              await loadLocalProperties(first.pool, config.propertiesFile);
              await options.seed?.(first);
              seeded = true;
            },
          },
        )
      : await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs }));
  try {
    await migrate(db.pool);
    await loadLocalProperties(db.pool, config.propertiesFile);
    if (!seeded) await options.seed?.(db);
    const bus = new EventBus();
    const version = readVersion();
    const metrics = createMetrics({ pool: db.pool, role: config.role, version });
    const context: AppContext = { config, db, bus, version, metrics, listens: options.listens ?? false };
    const { app, routes } = await buildServer({
      context,
      authenticate: createAuthenticator(db.pool, { bus }),
      forgedRequestReason,
      plugins: domainPlugins,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
    });
    await app.ready();
    const vacuum = db.mode === 'embedded' && config.role !== 'api' ? startEmbeddedVacuum(db, config.embeddedVacuumMs, app.log) : null;
    return {
      app,
      context,
      routes,
      async close() {
        await vacuum?.stop();
        await app.close();
        if (options.db === undefined) await db.close();
      },
    };
  } catch (error) {
    if (options.db === undefined) await db.close();
    throw error;
  }
}
