import pg from 'pg';
import { mongoLibrary, mysqlLibrary, redisLibrary } from '../../../platform/client-libraries';
import { urlWithCredentials } from '../connection-store';
import { MAX_TIMEOUT_MS } from './bounded-http';
import { guardedMysqlOptions, guardedPostgresConfig, type DatabaseGuard } from './local-database';
import { refuseOwnDatabase, refuseOwnSocket } from './own-database';

export interface QueryProbeResult {
  rows: number;
  /** The first row, for messages; values stringified. */
  firstRow: Record<string, unknown> | null;
}

function bounded(timeoutMs: number | undefined): number {
  return Math.min(timeoutMs ?? MAX_TIMEOUT_MS, MAX_TIMEOUT_MS);
}

/** Runs the user's query as one statement: the extended protocol refuses `…; select 1`. */
const ONE_STATEMENT = 'extended';

function rowsOf(list: unknown): QueryProbeResult {
  const rows = Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
  return { rows: rows.length, firstRow: rows[0] ?? null };
}

/**
 * Connects, runs one statement of the user's under a statement timeout and disconnects. Never in this server's own
 * database (own-database.ts), nor on this host unless an admin allowed it (local-database.ts); always inside a
 * read-only transaction that has already run a statement (so `SET TRANSACTION READ WRITE` is refused) and that is
 * rolled back.
 */
export async function postgresProbe(target: string | pg.ClientConfig, query: string, guard: DatabaseGuard, timeoutMs?: number, values: readonly string[] = []): Promise<QueryProbeResult> {
  const limit = bounded(timeoutMs);
  const base: pg.ClientConfig = typeof target === 'string' ? { connectionString: target } : target;
  const config = await guardedPostgresConfig({ ...base, connectionTimeoutMillis: limit, query_timeout: limit, statement_timeout: limit }, guard.allowLocal);
  const client = new pg.Client(config);
  // A server that drops the socket later emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => undefined);
  await refuseOwnSocket(client, guard.own);
  await client.connect();
  try {
    await client.query('begin transaction read only');
    // The identity query is also the statement after which the transaction's read-only mode is fixed.
    await refuseOwnDatabase(client, guard.own);
    const statement: pg.QueryConfig & { queryMode: typeof ONE_STATEMENT } = { text: query, values: [...values], queryMode: ONE_STATEMENT };
    const result = await client.query(statement);
    return rowsOf(result.rows);
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs one statement of the user's as a prepared statement (which holds exactly one, whatever flags the URL asks
 * for) inside a read-only transaction that is rolled back; the session is read-only too, so a statement that
 * commits implicitly (DDL) still finds read-only mode after the commit. Not on this host unless an admin allowed it.
 */
export async function mysqlProbe(url: string, query: string, guard: Pick<DatabaseGuard, 'allowLocal'>, timeoutMs?: number, values: readonly string[] = []): Promise<QueryProbeResult> {
  const limit = bounded(timeoutMs);
  const connection = await (await mysqlLibrary()).createConnection({ uri: url, connectTimeout: limit, ...(await guardedMysqlOptions(url, guard.allowLocal)) });
  connection.on('error', () => undefined);
  try {
    await connection.query({ sql: 'SET SESSION TRANSACTION READ ONLY', timeout: limit });
    await connection.query({ sql: 'START TRANSACTION READ ONLY', timeout: limit });
    await connection.query({ sql: 'SELECT 1', timeout: limit });
    const [rows] = await connection.execute({ sql: query, timeout: limit }, [...values]);
    return rowsOf(rows);
  } finally {
    await connection.query('ROLLBACK').catch(() => undefined);
    await connection.end().catch(() => undefined);
  }
}

/** TLS towards a redis server (canary-checker's tlsConfig); a rediss:// address turns it on with the defaults. */
export interface RedisTls {
  insecureSkipVerify?: boolean | undefined;
  ca?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  /** How long connecting and the handshake may take; the probe's whole limit when left out. */
  handshakeTimeoutMs?: number | undefined;
}

export interface RedisTarget {
  url: string;
  username?: string | null | undefined;
  password?: string | null | undefined;
  db?: number | undefined;
  /** Null or left out: TLS only when the address is rediss://. */
  tls?: RedisTls | null | undefined;
}

/** PING; resolves with the reply ('PONG'). */
export async function redisProbe(target: RedisTarget, timeoutMs?: number): Promise<string> {
  const limit = bounded(timeoutMs);
  const address = /^rediss?:\/\//.test(target.url) ? target.url : `redis://${target.url}`;
  // Credentials go into the URL: the client lets the URL's (absent) ones win over separate options.
  const url = new URL(urlWithCredentials({ url: address, username: target.username ?? null, password: target.password ?? null }));
  if (target.username) url.username = encodeURIComponent(target.username);
  if (target.password) url.password = encodeURIComponent(target.password);
  const tls = target.tls ?? (url.protocol === 'rediss:' ? {} : null);
  if (tls !== null) url.protocol = 'rediss:';
  const socket =
    tls === null
      ? { connectTimeout: limit, reconnectStrategy: false as const }
      : {
          connectTimeout: Math.min(tls.handshakeTimeoutMs ?? limit, limit),
          reconnectStrategy: false as const,
          tls: true as const,
          rejectUnauthorized: tls.insecureSkipVerify !== true,
          ...(tls.ca === undefined ? {} : { ca: tls.ca }),
          ...(tls.cert === undefined ? {} : { cert: tls.cert }),
          ...(tls.key === undefined ? {} : { key: tls.key }),
        };
  const client = (await redisLibrary()).createClient({ url: url.toString(), database: target.db ?? 0, socket, disableOfflineQueue: true });
  let lastError: Error | null = null;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  const deadline = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(`Redis did not answer within ${limit}ms`)), limit).unref();
  });
  try {
    await Promise.race([client.connect(), deadline]);
    return await Promise.race([client.ping(), deadline]);
  } catch (error) {
    throw lastError ?? error;
  } finally {
    if (client.isOpen) await client.close().catch(() => undefined);
    else client.destroy();
  }
}

/** Runs the `ping` command against the admin database. */
export async function mongoProbe(url: string, timeoutMs?: number): Promise<void> {
  const limit = bounded(timeoutMs);
  const client = new (await mongoLibrary()).MongoClient(url, { serverSelectionTimeoutMS: limit, connectTimeoutMS: limit, socketTimeoutMS: limit });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}
