import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { ensurePrivateDir } from '../platform/private-files';
import { acquireLock } from './lock-file';

export interface Database {
  pool: pg.Pool;
  mode: 'embedded' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  statementTimeoutMs: number;
  poolSize?: number;
  /**
   * Embedded only: start from this data-directory tarball (PGlite's dumpDataDir) held in memory instead of the files
   * under dataDir. The server suites clone their seeded template this way: nothing they write needs to outlive the
   * suite, and an in-memory database wrote their statements about a quarter faster than one on files.
   */
  memoryFrom?: string;
  /**
   * Embedded only: PostgreSQL's shared_buffers (e.g. '16MB') instead of its 128MB. PGlite's buffer cache lives in its
   * WebAssembly memory, which never shrinks once touched; an agent's small database does not need it (ADR 0079).
   */
  sharedBuffers?: string;
}

// Dates stay ISO strings and bigints stay exact: the API returns what PostgREST would, not JS Date objects.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => value);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => value);
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
});
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** Messages the embedded worker posts to its parent. */
type WorkerMessage = { type: 'ready' } | { type: 'closed' } | { type: 'error'; message: string };

function waitFor(worker: Worker, type: 'ready' | 'closed'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage): void => {
      if (message.type === type) {
        worker.off('message', onMessage);
        resolve();
      } else if (message.type === 'error') {
        worker.off('message', onMessage);
        reject(new Error(`Embedded database failed: ${message.message}`));
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

/**
 * PGlite runs in a worker thread so that queries never block the event loop, and is reached over a unix socket so the
 * app uses the same pg.Pool code path as with an external PostgreSQL.
 */
async function openEmbedded(options: DatabaseOptions): Promise<Database> {
  const pgdata = path.join(options.dataDir, 'pgdata');
  // PGlite would create the folder with the process umask; the database files inside are the console's data.
  if (options.memoryFrom === undefined) ensurePrivateDir(pgdata);
  const release = acquireLock(options.dataDir);
  // mkdtemp makes the socket folder 0700, so no other user can connect to the unauthenticated socket.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-'));
  const socketPath = path.join(socketDir, '.s.PGSQL.5432');
  // One connection: PGlite has a single backend, and its socket server interleaves the messages of concurrent
  // connections one by one, so a second connection's Parse could replace the first one's unnamed statement mid-query.
  const maxConnections = options.poolSize ?? 1;
  const worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), {
    workerData: { dataDir: pgdata, memoryFrom: options.memoryFrom ?? null, socketPath, maxConnections: maxConnections + 2, sharedBuffers: options.sharedBuffers ?? null },
  });
  try {
    await waitFor(worker, 'ready');
  } catch (error) {
    await worker.terminate();
    release();
    throw error;
  }
  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: maxConnections,
    statement_timeout: options.statementTimeoutMs,
  });
  pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
  return {
    pool,
    mode: 'embedded',
    async close() {
      await pool.end();
      worker.postMessage('close');
      await waitFor(worker, 'closed');
      await worker.terminate();
      rmSync(socketDir, { recursive: true, force: true });
      release();
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl === undefined) return openEmbedded(options);
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs,
  });
  // An idle client can lose its connection (server restart, a dropped database); that must not crash the process.
  pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
  await pool.query('select 1');
  return {
    pool,
    mode: 'postgres',
    async close() {
      await pool.end();
    },
  };
}
