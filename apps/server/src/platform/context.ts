import type { Config } from './config';
import type { Database } from '../db/database';
import type { EventBus } from './event-bus';
import type { Metrics } from './metrics';

/** What every domain plugin receives: configuration, the database and the in-process event bus. */
export interface AppContext {
  config: Config;
  db: Database;
  bus: EventBus;
  version: string;
  /** This app's Prometheus registry and instruments (platform/metrics.ts), served at /metrics. */
  metrics: Metrics;
  /**
   * The caller listens right after building the app: the check scheduler then starts once the server listens, not
   * when it is ready (Fastify runs onReady before it binds), so a check that probes this server never finds it closed.
   */
  listens: boolean;
}
