import pg from 'pg';
import type { PlaybookActionResult, SqlAction } from '@opsdeck/shared';
import {
  namesOwnDatabase,
  OWN_DATABASE_MESSAGE,
  ownDatabase,
  refuseOwnDatabase,
  refuseOwnSocket,
  resolveConnection,
  urlWithCredentials,
  type ResolvedConnection,
} from '../../connections';
import { scrubSecrets, SecretCollector } from '../../health';
import type { ActionOutcome, ActionRunContext, ActionRunner } from '../types';
import { mysqlLibrary } from '../../../platform/client-libraries';
import { holdsMarkers, placeInSql } from '../../../platform/value-placement';
import { ACTION_ROW_CAP, completedOutcome, errorText, failedOutcome, jsonValues, stopMessage } from './action-outcome';

export type SqlDriver = 'postgres' | 'mysql';

/** Connecting never waits longer than this, whatever the action's timeout. */
const CONNECT_TIMEOUT_MS = 30_000;
/** How often PostgreSQL looks for a client that went away, so a cancelled action's query stops soon on the server too. */
const CLIENT_CHECK_INTERVAL = '1s';
/** The error code of the refusal, as the save-time rule (platform/errors.ts) names it, in front of the probe's message. */
const OWN_DATABASE_CODE = 'OD_OWN_DATABASE';

interface QueryAnswer {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** The driver the action names, else the one of the connection's type; null when neither is a SQL database here. */
export function sqlDriver(action: Pick<SqlAction, 'driver'>, connectionType: string): SqlDriver | null {
  if (action.driver !== undefined) return action.driver;
  const type = connectionType.toLowerCase();
  if (type === 'postgres' || type === 'postgresql') return 'postgres';
  if (type === 'mysql' || type === 'mariadb') return 'mysql';
  return null;
}

function ownDatabaseError(error: unknown): string | null {
  const message = errorText(error);
  return message.startsWith('Refusing to run') || message.startsWith("Cannot verify that the target is not Opsdeck's own database") ? `${OWN_DATABASE_CODE}: ${message}` : null;
}

/**
 * The statement in one transaction, committed when it succeeds: a runbook may write. Never in the console's own
 * database (connections/probes/own-database.ts), which is checked inside the transaction before the user's SQL.
 */
async function queryPostgres(url: string, action: SqlAction, context: ActionRunContext): Promise<QueryAnswer> {
  if (namesOwnDatabase(context.pool, url)) throw new Error(OWN_DATABASE_MESSAGE);
  const own = await ownDatabase(context.pool);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: Math.min(context.timeoutMs, CONNECT_TIMEOUT_MS) });
  // A server that drops the socket later emits 'error' on the client; without a listener that would crash the process.
  client.on('error', () => undefined);
  await refuseOwnSocket(client, own);
  const onAbort = (): void => {
    void client.end().catch(() => undefined);
  };
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (context.signal.aborted) throw new Error('stopped before connecting');
    await client.connect();
    // Older servers and other PostgreSQL-speaking databases may not know the setting; the statement timeout still bounds the query.
    await client.query(`select pg_catalog.set_config('client_connection_check_interval', $1, false)`, [CLIENT_CHECK_INTERVAL]).catch(() => undefined);
    await client.query('begin');
    await refuseOwnDatabase(client, own);
    await client.query(`select pg_catalog.set_config('statement_timeout', $1, true)`, [String(context.timeoutMs)]);
    // The extended protocol holds exactly one statement, so `args` are bound to it and nothing rides along after a `;`.
    const config: pg.QueryConfig & { queryMode: 'extended' } = { text: action.query, values: action.args ?? [], queryMode: 'extended' };
    const result = await client.query<Record<string, unknown>>(config);
    await client.query('commit');
    return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  }
}

function isRowList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row));
}

/** A prepared statement (exactly one statement) in a transaction committed on success; the client-side timeout closes the connection. */
async function queryMysql(url: string, action: SqlAction, context: ActionRunContext): Promise<QueryAnswer> {
  if (context.signal.aborted) throw new Error('stopped before connecting');
  const connection = await (await mysqlLibrary()).createConnection({
    uri: url,
    connectTimeout: Math.min(context.timeoutMs, CONNECT_TIMEOUT_MS),
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  connection.on('error', () => undefined);
  const onAbort = (): void => connection.destroy();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await connection.query({ sql: 'START TRANSACTION', timeout: context.timeoutMs });
    const [answer] = await connection.execute({ sql: action.query, timeout: context.timeoutMs }, action.args ?? []);
    await connection.query({ sql: 'COMMIT', timeout: context.timeoutMs });
    if (isRowList(answer)) return { rows: answer, rowCount: answer.length };
    const affected = typeof answer === 'object' && answer !== null && 'affectedRows' in answer && typeof answer.affectedRows === 'number' ? answer.affectedRows : 0;
    return { rows: [], rowCount: affected };
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await connection.end().catch(() => undefined);
  }
}

/**
 * The query with its template values (markers left by renderAction) bound as parameters of the driver's style after
 * or among `args` (value-placement.ts placeInSql); a query without template values is left as written.
 */
export function boundStatement(spec: SqlAction, driver: SqlDriver): SqlAction {
  if (!holdsMarkers(spec.query)) return spec;
  const { query, args } = placeInSql(spec.query, driver, spec.args ?? []);
  return { ...spec, query, args };
}

function connectionLabel(connection: ResolvedConnection): string {
  return `${connection.namespace}/${connection.name}`;
}

async function runQuery(spec: SqlAction, context: ActionRunContext, secrets: SecretCollector): Promise<ActionOutcome> {
  const startedAt = performance.now();
  let connection: ResolvedConnection;
  try {
    connection = await resolveConnection(context.pool, context.secretKey, spec.connection);
  } catch (error) {
    return failedOutcome(errorText(error));
  }
  secrets.addConnection(connection);
  if (connection.url === null || connection.url === '') return failedOutcome(`Connection ${connectionLabel(connection)} has no URL`);
  const driver = sqlDriver(spec, connection.type);
  if (driver === null) return failedOutcome(`Connection ${connectionLabel(connection)} is of type ${connection.type}, not a postgres or mysql database`);
  let statement: SqlAction;
  try {
    statement = boundStatement(spec, driver);
  } catch (error) {
    return failedOutcome(`The query was not run: ${errorText(error)}`);
  }
  const url = urlWithCredentials(connection);
  let answer: QueryAnswer;
  try {
    answer = driver === 'postgres' ? await queryPostgres(url, statement, context) : await queryMysql(url, statement, context);
  } catch (error) {
    if (context.signal.aborted) return failedOutcome(stopMessage(context.signal, context.timeoutMs, startedAt));
    return failedOutcome(ownDatabaseError(error) ?? errorText(error));
  }
  const kept = answer.rows.slice(0, ACTION_ROW_CAP).map(jsonValues);
  const truncated = answer.rows.length > ACTION_ROW_CAP;
  const result: PlaybookActionResult = {
    logs: `${answer.rowCount} ${answer.rowCount === 1 ? 'row' : 'rows'} from ${connectionLabel(connection)} in ${Math.round(performance.now() - startedAt)}ms${truncated ? `; the first ${ACTION_ROW_CAP} kept` : ''}`,
    rows: kept,
    rowCount: answer.rowCount,
    // Mission Control's name for it: `last_result().count`, `{{ index last_result "count" }}`.
    count: answer.rowCount,
    ...(truncated ? { truncated } : {}),
  };
  return completedOutcome(result);
}

/**
 * One statement through a postgres or mysql connection with `args` bound as parameters ($1… or ?), under a statement
 * timeout equal to the action's, committed on success. The first ACTION_ROW_CAP rows are kept with the row count.
 */
export const runSqlAction: ActionRunner = async (action, context) => {
  if (action.sql === undefined) throw new Error(`Action '${action.name}' has no sql block`);
  const secrets = new SecretCollector();
  const outcome = await runQuery(action.sql, context, secrets);
  return scrubSecrets(outcome, secrets.values());
};
