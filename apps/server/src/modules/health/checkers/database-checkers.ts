import {
  connectionOriginMessage,
  databaseGuard,
  leavesConnectionOrigin,
  localDatabasesAllowed,
  urlWithCredentials,
  mongoProbe,
  mysqlProbe,
  postgresProbe,
  redisProbe,
} from '../../connections';
import { parseDurationMs, type MongoCheckSpec, type RedisCheckSpec, type SqlCheckSpec } from '@opsdeck/shared';
import { failed, isInlineUrl, withThreshold, type CheckerContext, type CheckOutcome } from './checker';
import { renderCheckQuery } from '../check-template';
import type { SqlDialect } from '../../../platform/value-placement';

type QueryProbeResult = Awaited<ReturnType<typeof postgresProbe>>;

interface Target {
  url: string | null;
  username: string | null;
  password: string | null;
}

/**
 * A check that names a stored connection and also its own target (field `field`, e.g. url) may only stay on the
 * connection's origin: refused here as well as at save, for specs stored before the rule.
 */
async function refuseForeignTarget(connection: string | undefined, target: string | undefined, field: string, context: CheckerContext): Promise<void> {
  if (connection === undefined || isInlineUrl(connection) || target === undefined || target === '') return;
  const stored = await context.resolveConnection(connection);
  if (leavesConnectionOrigin(stored.url, target)) throw new Error(connectionOriginMessage(field));
}

/** The check's own URL and credentials win over those of the connection it names. */
async function targetOf(
  spec: { url?: string | undefined; connection?: string | undefined; username?: string | undefined; password?: string | undefined },
  context: CheckerContext,
): Promise<Target> {
  await refuseForeignTarget(spec.connection, spec.url, 'url', context);
  const inline = spec.url ?? (spec.connection !== undefined && isInlineUrl(spec.connection) ? spec.connection : undefined);
  if (inline !== undefined || spec.connection === undefined) {
    return { url: inline ?? null, username: spec.username ?? null, password: spec.password ?? null };
  }
  const connection = await context.resolveConnection(spec.connection);
  return { url: connection.url, username: spec.username ?? connection.username, password: spec.password ?? connection.password };
}

/**
 * canary-checker's `results` of a SQL check are `{count, rows}`. The probe keeps only the first row, so `rows` is given
 * when it is the whole answer (0 or 1 row) and left out otherwise: an expression reading it then fails to evaluate
 * and says so, rather than judging a partial list.
 */
function sqlData(probe: QueryProbeResult): Record<string, unknown> {
  const results: Record<string, unknown> = { count: probe.rows };
  if (probe.rows <= 1) results.rows = probe.firstRow === null ? [] : [probe.firstRow];
  return { results };
}

function expectRows(probe: QueryProbeResult, results: number | undefined, durationMs: number, threshold: number | undefined): CheckOutcome {
  const { rows } = probe;
  const summary = `${rows} ${rows === 1 ? 'row' : 'rows'} in ${durationMs}ms`;
  const data = sqlData(probe);
  if (results !== undefined && rows !== results) return { ...failed(`${summary}; expected ${results}`), durationMs, data };
  return { ...withThreshold({ pass: true, message: summary, details: { rows } }, durationMs, threshold), durationMs, data };
}

/** The query as canary-checker templates it (canary, check and last_result), its values bound as parameters. */
function templatedQuery(query: string, context: CheckerContext, dialect: SqlDialect): { query: string; args: string[] } | { error: string } {
  try {
    return renderCheckQuery(query, { canary: context.identity?.canary ?? {}, check: context.identity?.check ?? {} }, context.lastResult, dialect);
  } catch (error) {
    return { error: `failed to template the query: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export async function runPostgresCheck(spec: SqlCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const target = await targetOf(spec, context);
  if (target.url === null) return failed('No database: set connection or url');
  const statement = templatedQuery(spec.query, context, 'postgres');
  if ('error' in statement) return failed(statement.error);
  const guard = await databaseGuard(context.pool);
  const started = performance.now();
  const result = await postgresProbe(urlWithCredentials(target), statement.query, guard, context.timeoutMs, statement.args);
  return expectRows(result, spec.results, Math.round(performance.now() - started), spec.thresholdMillis);
}

export async function runMysqlCheck(spec: SqlCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const target = await targetOf(spec, context);
  if (target.url === null) return failed('No database: set connection or url');
  const statement = templatedQuery(spec.query, context, 'mysql');
  if ('error' in statement) return failed(statement.error);
  const allowLocal = await localDatabasesAllowed(context.pool);
  const started = performance.now();
  const result = await mysqlProbe(urlWithCredentials(target), statement.query, { allowLocal }, context.timeoutMs, statement.args);
  return expectRows(result, spec.results, Math.round(performance.now() - started), spec.thresholdMillis);
}

export async function runRedisCheck(spec: RedisCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  await refuseForeignTarget(spec.connection, spec.addr, 'addr', context);
  const target = spec.addr !== undefined ? { url: spec.addr, username: null, password: null } : await targetOf(spec, context);
  if (target.url === null) return failed('No server: set addr or connection');
  const tls = spec.tlsConfig;
  if (tls !== undefined && (tls.cert === undefined) !== (tls.key === undefined)) return failed('tlsConfig: cert and key go together: give both or neither');
  // canary-checker's SwitchableTLSConfig.Enabled: a key or handshakeTimeout alone does not turn TLS on.
  const tlsOn = tls !== undefined && (tls.enable === true || tls.insecureSkipVerify === true || tls.ca !== undefined || tls.cert !== undefined);
  const handshakeMs = tls?.handshakeTimeout === undefined ? null : parseDurationMs(tls.handshakeTimeout);
  const started = performance.now();
  const reply = await redisProbe(
    {
      url: target.url,
      username: spec.username ?? target.username,
      password: spec.password ?? target.password,
      db: spec.db,
      tls: tlsOn ? { insecureSkipVerify: tls.insecureSkipVerify, ca: tls.ca, cert: tls.cert, key: tls.key, handshakeTimeoutMs: handshakeMs ?? undefined } : null,
    },
    context.timeoutMs,
  );
  const durationMs = Math.round(performance.now() - started);
  const data = { results: { reply } };
  return { ...withThreshold({ pass: true, message: `${reply} in ${durationMs}ms` }, durationMs, spec.thresholdMillis), durationMs, data };
}

export async function runMongoCheck(spec: MongoCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const target = await targetOf(spec, context);
  if (target.url === null) return failed('No server: set connection or url');
  const started = performance.now();
  await mongoProbe(urlWithCredentials(target), context.timeoutMs);
  const durationMs = Math.round(performance.now() - started);
  return { ...withThreshold({ pass: true, message: `ping ok in ${durationMs}ms` }, durationMs, spec.thresholdMillis), durationMs, data: { results: {} } };
}
