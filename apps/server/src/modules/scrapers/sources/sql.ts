import pg from 'pg';
import {
  databaseGuard,
  guardedMysqlOptions,
  guardedPostgresConfig,
  localDatabasesAllowed,
  namesOwnDatabase,
  OWN_DATABASE_MESSAGE,
  refuseOwnDatabase,
  refuseOwnSocket,
  resolveConnection,
  urlWithCredentials,
} from '../../connections';
import type { SecretCollector } from '../../health';
import { openScraperEntry } from '../scraper-secrets';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import type { ItemCollector } from './extract';
import { mysqlLibrary } from '../../../platform/client-libraries';
import { isRecord } from '../../../platform/json-values';
import { secretScrubbingRunner } from './scrubbed-source';

export const SQL_TIMEOUT_MS = 30_000;

type Driver = 'postgres' | 'mysql' | 'sql_server';

interface Target {
  url: string;
  driver: Driver;
  /** ScrapedItem.source of every row. */
  source: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);

function plain(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (isRecord(value) && typeof value.value === 'string' && value.value !== '') return value.value;
  return null;
}

export function driverOf(name: string | null, url: string): Driver | null {
  const key = (name ?? /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? '').toLowerCase().replace(/-/g, '_');
  if (key === 'postgres' || key === 'postgresql' || key === 'pg') return 'postgres';
  if (key === 'mysql' || key === 'mariadb') return 'mysql';
  if (key === 'sql_server' || key === 'sqlserver' || key === 'mssql') return 'sql_server';
  return null;
}

function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return raw.replace(/\/\/[^/@]*@/, '//');
  }
}

/**
 * The save-time rule, repeated here for specs stored before it: the own database's host, port and name, or any
 * local target (loopback or unix socket) with the own database's name. The identity check after connecting is the
 * authoritative one.
 */
export function namesOwnDatabaseUrl(ownUrl: string | null, target: string): boolean {
  if (ownUrl === null) return false;
  let own: pg.Client;
  let other: pg.Client;
  try {
    own = new pg.Client({ connectionString: ownUrl });
    other = new pg.Client({ connectionString: target });
  } catch {
    return false;
  }
  if (own.database !== other.database) return false;
  const sameServer = own.host.toLowerCase() === other.host.toLowerCase() && own.port === other.port;
  return sameServer || other.host.startsWith('/') || LOOPBACK.has(other.host.toLowerCase());
}

function addUrlCredentials(raw: string, secrets: SecretCollector): void {
  try {
    const url = new URL(raw);
    if (url.password !== '') secrets.addCredentials(decodeURIComponent(url.username), decodeURIComponent(url.password));
  } catch {
    // Not a URL: nothing embedded to hide.
  }
}

async function targetOf(spec: Record<string, unknown>, context: SourceContext, secrets: SecretCollector): Promise<Target> {
  const reference = typeof spec.connection === 'string' && spec.connection !== '' ? spec.connection : null;
  const inline = reference !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(reference) && !reference.startsWith('connection://') ? reference : null;
  const auth = isRecord(spec.auth) ? spec.auth : {};
  const username = plain(auth.username);
  const password = plain(auth.password);
  secrets.addCredentials(username ?? '', password);
  const driverName = typeof spec.driver === 'string' && spec.driver !== '' ? spec.driver : null;
  if (reference !== null && inline === null) {
    const connection = await resolveConnection(context.pool, context.secretKey, reference);
    secrets.addConnection(connection);
    if (connection.url === null) throw new Error(`connection ${connection.namespace}/${connection.name} has no URL`);
    const url = urlWithCredentials({ url: connection.url, username: username ?? connection.username, password: password ?? connection.password });
    const driver = driverOf(driverName ?? connection.type, connection.url);
    if (driver === null) throw new Error(`connection ${connection.namespace}/${connection.name} of type ${connection.type} is not a SQL database`);
    return { url, driver, source: `sql:${connection.namespace}/${connection.name}` };
  }
  const raw = inline ?? (typeof spec.url === 'string' && spec.url !== '' ? spec.url : null);
  if (raw === null) throw new Error('no database: set connection or url');
  addUrlCredentials(raw, secrets);
  const driver = driverOf(driverName, raw);
  if (driver === null) throw new Error(`cannot tell the database driver from '${withoutCredentials(raw)}': set driver to postgres or mysql`);
  return { url: urlWithCredentials({ url: raw, username, password }), driver, source: `sql:${withoutCredentials(raw)}` };
}

/** Values as JSON would store them (dates as ISO text, big numbers as text), so a rescrape compares equal. */
function jsonRow(row: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))) as Record<string, unknown>;
}

/**
 * One statement of the user's, in a read-only transaction that has already run a statement (so it cannot be made
 * read-write), under a statement timeout, and rolled back. Never in the console's own database, nor on this host
 * unless an admin allowed it.
 */
async function queryPostgres(url: string, query: string, context: SourceContext): Promise<unknown[]> {
  if (namesOwnDatabaseUrl(context.ownDatabaseUrl, url) || namesOwnDatabase(context.pool, url)) throw new Error(OWN_DATABASE_MESSAGE);
  const guard = await databaseGuard(context.pool);
  const config = await guardedPostgresConfig({ connectionString: url, connectionTimeoutMillis: SQL_TIMEOUT_MS, query_timeout: SQL_TIMEOUT_MS }, guard.allowLocal);
  const client = new pg.Client(config);
  // A server that drops the socket later emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => undefined);
  await refuseOwnSocket(client, guard.own);
  const onAbort = (): void => {
    void client.end().catch(() => undefined);
  };
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await client.connect();
    await client.query('begin transaction read only');
    await refuseOwnDatabase(client, guard.own);
    await client.query(`set local statement_timeout = ${SQL_TIMEOUT_MS}`);
    const config: pg.QueryConfig & { queryMode: 'extended' } = { text: query, queryMode: 'extended' };
    const result = await client.query(config);
    return result.rows;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await client.query('rollback').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/** The session is read-only too, so a statement that commits implicitly (DDL) still finds read-only mode after it. */
async function queryMysql(url: string, query: string, context: SourceContext): Promise<unknown[]> {
  const pinned = await guardedMysqlOptions(url, await localDatabasesAllowed(context.pool));
  const connection = await (await mysqlLibrary()).createConnection({
    uri: url,
    connectTimeout: SQL_TIMEOUT_MS,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    ...pinned,
  });
  connection.on('error', () => undefined);
  const onAbort = (): void => connection.destroy();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await connection.query({ sql: 'SET SESSION TRANSACTION READ ONLY', timeout: SQL_TIMEOUT_MS });
    await connection.query({ sql: 'START TRANSACTION READ ONLY', timeout: SQL_TIMEOUT_MS });
    const [rows] = await connection.execute({ sql: query, timeout: SQL_TIMEOUT_MS });
    return Array.isArray(rows) ? rows : [];
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await connection.query('ROLLBACK').catch(() => undefined);
    await connection.end().catch(() => undefined);
  }
}

async function scrape(entry: SourceEntry, context: SourceContext, secrets: SecretCollector, collector: ItemCollector): Promise<void> {
  const opened = openScraperEntry(context.secretKey, context.scraperId, entry.spec);
  secrets.addOpenedSpec(entry.spec, opened);
  const query = typeof opened.query === 'string' ? opened.query.trim() : '';
  if (query === '') throw new Error('no query');
  const target = await targetOf(opened, context, secrets);
  if (target.driver === 'sql_server') throw new Error('no driver for sql_server in this server');
  if (context.signal.aborted) throw new Error('the run was stopped before the query was sent');
  const rows = target.driver === 'postgres' ? await queryPostgres(target.url, query, context) : await queryMysql(target.url, query, context);
  // Each row is a document, as in config-db: `items` and the transform script cut it into configs.
  rows.forEach((row, index) => {
    collector.addDocument(jsonRow(row), { where: `sql[${entry.index}] row ${index + 1}`, source: target.source, format: 'json' });
  });
}

/** Runs the entry's query read-only against its database; each row (or each piece `items` cuts it into) becomes an item. */
export const runSqlSource: SourceRunner = secretScrubbingRunner('sql', scrape);
