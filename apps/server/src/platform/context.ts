import type { Config } from './config';
import type { Database } from '../db/database';
import type { EventBus } from './event-bus';

/** What every domain plugin receives: configuration, the database and the in-process event bus. */
export interface AppContext {
  config: Config;
  db: Database;
  bus: EventBus;
  version: string;
}
