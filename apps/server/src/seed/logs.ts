import path from 'node:path';
import type pg from 'pg';
import { DEMO_LOG_BACKEND_NAME, demoLogBackendSpec, writeDemoLogs } from '../modules/logs';

type Queryable = Pick<pg.PoolClient, 'query'>;

export interface LogsDemoOptions {
  adminId: string;
  /** Where the demo's log files are written (<dataDir>/logs/demo, under the default log root); without it none are. */
  dataDir?: string | undefined;
}

/**
 * The demo's file log backend and the files it reads. The backend's paths are relative to the log roots, not
 * absolute paths of this machine, so a seeded data folder copied elsewhere (the e2e template) still finds its files.
 */
export async function seedLogsDemo(client: Queryable, options: LogsDemoOptions): Promise<void> {
  if (options.dataDir !== undefined) writeDemoLogs(path.join(options.dataDir, 'logs'));
  await client.query(
    `insert into logging_backends (name, namespace, labels, spec, source, created_by)
     select $1, 'demo', $2, $3, 'UI', $4
      where not exists (select 1 from logging_backends where name = $1 and deleted_at is null)`,
    [DEMO_LOG_BACKEND_NAME, JSON.stringify({ demo: 'true' }), JSON.stringify(demoLogBackendSpec()), options.adminId],
  );
}
