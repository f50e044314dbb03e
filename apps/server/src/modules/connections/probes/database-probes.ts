import pg from 'pg';
import mysql from 'mysql2/promise';
import { createClient } from 'redis';
import { MongoClient } from 'mongodb';
import { MAX_TIMEOUT_MS } from './bounded-http';

export interface QueryProbeResult {
  rows: number;
  /** The first row, for messages; values stringified. */
  firstRow: Record<string, unknown> | null;
}

function bounded(timeoutMs: number | undefined): number {
  return Math.min(timeoutMs ?? MAX_TIMEOUT_MS, MAX_TIMEOUT_MS);
}

/**
 * Connects, runs one query under a statement timeout and disconnects; `target` is a URL, pg client settings, or this
 * server's own pool (then the query runs on a pooled connection).
 */
export async function postgresProbe(target: string | pg.ClientConfig | pg.Pool, query: string, timeoutMs?: number): Promise<QueryProbeResult> {
  if (target instanceof pg.Pool) {
    // Bounded by the pool's own statement timeout.
    const result: pg.QueryResult | pg.QueryResult[] = await target.query(query);
    const rows = Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows;
    return { rows: rows.length, firstRow: (rows[0] as Record<string, unknown> | undefined) ?? null };
  }
  const limit = bounded(timeoutMs);
  const base: pg.ClientConfig = typeof target === 'string' ? { connectionString: target } : target;
  const client = new pg.Client({ ...base, connectionTimeoutMillis: limit, query_timeout: limit, statement_timeout: limit });
  // A server that drops the socket later emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const result = await client.query(query);
    const rows = Array.isArray(result) ? (result.at(-1) as pg.QueryResult).rows : result.rows;
    return { rows: rows.length, firstRow: (rows[0] as Record<string, unknown> | undefined) ?? null };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function mysqlProbe(url: string, query: string, timeoutMs?: number): Promise<QueryProbeResult> {
  const limit = bounded(timeoutMs);
  const connection = await mysql.createConnection({ uri: url, connectTimeout: limit });
  connection.on('error', () => undefined);
  try {
    const [rows] = await connection.query({ sql: query, timeout: limit });
    const list = Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    return { rows: list.length, firstRow: list[0] ?? null };
  } finally {
    await connection.end().catch(() => undefined);
  }
}

export interface RedisTarget {
  url: string;
  username?: string | null | undefined;
  password?: string | null | undefined;
  db?: number | undefined;
}

/** PING; resolves with the reply ('PONG'). */
export async function redisProbe(target: RedisTarget, timeoutMs?: number): Promise<string> {
  const limit = bounded(timeoutMs);
  const url = new URL(/^rediss?:\/\//.test(target.url) ? target.url : `redis://${target.url}`);
  // Credentials go into the URL: the client lets the URL's (absent) ones win over separate options.
  if (target.username) url.username = encodeURIComponent(target.username);
  if (target.password) url.password = encodeURIComponent(target.password);
  const client = createClient({
    url: url.toString(),
    database: target.db ?? 0,
    socket: { connectTimeout: limit, reconnectStrategy: false },
    disableOfflineQueue: true,
  });
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
  const client = new MongoClient(url, { serverSelectionTimeoutMS: limit, connectTimeoutMS: limit, socketTimeoutMS: limit });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}
