import { isSupportedCheckType, parseDurationMs } from '@opsdeck/shared';
import { CanarySpecError, parseCheckSpec } from '../canary-spec';
import { applyCheckExpressions, readCheckExpressions, type ExpressionScope, type TransformedCheck } from '../check-expressions';
import type { MetricSample } from '../../../platform/check-metrics';
import { prepareJavaScriptFor } from '../../../platform/javascript/sandboxed-javascript';
import type { CheckerContext, CheckOutcome } from './checker';
import type { CollectedArtifact } from '../exec-artifacts';
import { runCatalogCheck } from './catalog-checker';
import { runMongoCheck, runMysqlCheck, runPostgresCheck, runRedisCheck } from './database-checkers';
import { runExecCheck } from './exec-checker';
import { runFolderCheck } from './folder-checker';
import { runKubernetesCheck } from './kubernetes-checker';
import { runDnsCheck, runHttpCheck, runIcmpCheck, runTcpCheck } from './network-checkers';
import { runPrometheusCheck } from './prometheus-checker';
import { runAlertmanagerCheck, runElasticsearchCheck } from './search-checkers';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const EXEC_DEFAULT_TIMEOUT_MS = 30_000;
/** The longest any check may run; the scheduler's lease outlives it. */
export const MAX_CHECK_TIMEOUT_MS = 120_000;

export interface CheckResult {
  pass: boolean;
  durationMs: number;
  message: string;
  error: string | null;
  details: Record<string, unknown> | null;
  /** The checks a fan-out `transform` returned this run (recorded under the canary); null when there was none. */
  transformed?: TransformedCheck[] | null;
  /** What the check's `metrics` gave this run (also stored in details.metrics), for the process to export. */
  metrics?: MetricSample[];
  /** The result variables its expressions read (secrets redacted): what a check that depends on it reads as outputs.<name>. */
  variables?: Record<string, unknown>;
  /** Files an exec check kept this run (only when its spec names artifacts). */
  artifacts?: CollectedArtifact[];
}

/** Who a run is for, as expressions see it (`canary`, `check`); a bare run (the bench) gets empty names. */
export type CheckIdentity = Omit<ExpressionScope, 'type'>;

const ANONYMOUS: CheckIdentity = {
  canary: { name: '', namespace: '', labels: {}, id: '' },
  check: { name: '', id: '', description: '', labels: {}, endpoint: '' },
};

/** canary-checker declares these types' timeout as a whole number of seconds; every other type reads a duration. */
const TIMEOUT_IN_SECONDS: ReadonlySet<string> = new Set(['dns', 'postgres', 'mysql']);

export function timeoutOf(type: string, spec: Record<string, unknown>): number {
  const raw = spec.timeout;
  const seconds = typeof raw === 'number' && TIMEOUT_IN_SECONDS.has(type);
  const parsed = seconds ? raw * 1000 : typeof raw === 'string' || typeof raw === 'number' ? parseDurationMs(raw) : null;
  const fallback = type === 'exec' ? EXEC_DEFAULT_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
  return Math.max(100, Math.min(parsed ?? fallback, MAX_CHECK_TIMEOUT_MS));
}

async function dispatch(type: string, spec: Record<string, unknown>, context: CheckerContext): Promise<CheckOutcome> {
  if (!isSupportedCheckType(type)) return { pass: false, message: `Check type '${type}' cannot run on this server`, error: 'unsupported check type' };
  switch (type) {
    case 'http':
      return runHttpCheck(parseCheckSpec('http', spec), context);
    case 'tcp':
      return runTcpCheck(parseCheckSpec('tcp', spec), context);
    case 'dns':
      return runDnsCheck(parseCheckSpec('dns', spec), context);
    case 'icmp':
      return runIcmpCheck(parseCheckSpec('icmp', spec), context);
    case 'exec':
      return runExecCheck(parseCheckSpec('exec', spec), context);
    case 'postgres':
      return runPostgresCheck(parseCheckSpec('postgres', spec), context);
    case 'mysql':
      return runMysqlCheck(parseCheckSpec('mysql', spec), context);
    case 'redis':
      return runRedisCheck(parseCheckSpec('redis', spec), context);
    case 'mongodb':
      return runMongoCheck(parseCheckSpec('mongodb', spec), context);
    case 'folder':
      return runFolderCheck(parseCheckSpec('folder', spec), context);
    case 'prometheus':
      return runPrometheusCheck(parseCheckSpec('prometheus', spec), context);
    case 'catalog':
      return runCatalogCheck(parseCheckSpec('catalog', spec), context);
    case 'elasticsearch':
      return runElasticsearchCheck(parseCheckSpec('elasticsearch', spec), context);
    case 'opensearch':
      return runElasticsearchCheck(parseCheckSpec('opensearch', spec), context, 'OpenSearch');
    case 'alertmanager':
      return runAlertmanagerCheck(parseCheckSpec('alertmanager', spec), context);
    case 'kubernetes':
      return runKubernetesCheck(parseCheckSpec('kubernetes', spec), context);
  }
}

function describeError(error: unknown): string {
  if (error instanceof CanarySpecError) return `Invalid check spec: ${error.message}`;
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/**
 * Runs one check to a result; never throws. A checker that ignores its deadline is abandoned one second after
 * it, so a worker slot is never held for longer than the check's timeout.
 */
export async function runCheck(
  type: string,
  spec: Record<string, unknown>,
  context: Omit<CheckerContext, 'timeoutMs' | 'signal' | 'hasTestExpression'> & {
    signal?: AbortSignal;
    identity?: CheckIdentity;
    /** Applied to the result variables before any expression reads them (the scheduler removes the run's secrets). */
    redact?: (data: Record<string, unknown>) => Record<string, unknown>;
    /** Variables added beside the checker's own: `outputs` of the checks this one depends on. */
    variables?: Record<string, unknown>;
  },
): Promise<CheckResult> {
  const started = performance.now();
  const expressions = readCheckExpressions(spec);
  // A test, display or transform this server cannot run fails the check by name: it is never skipped.
  if ('error' in expressions) return { pass: false, durationMs: 0, message: expressions.error, error: expressions.error, details: null };
  const { identity = ANONYMOUS, redact = (data: Record<string, unknown>) => data, variables: added = {}, ...checkerContext } = context;
  const { outcome, result } = await runChecker(type, spec, { ...checkerContext, hasTestExpression: expressions.test !== null, identity }, started);
  // A checker that threw, timed out or gave up before it had an answer has no result variables to judge, and has failed.
  if (outcome === null || (!outcome.pass && outcome.data === undefined)) return result;
  const name = typeof spec.name === 'string' ? spec.name : identity.check.name;
  const variables = redact({ ...(outcome.data ?? {}), ...added });
  await prepareJavaScriptFor(spec);
  const judged = applyCheckExpressions(result, variables, expressions, { ...identity, check: { ...identity.check, name }, type, ...(context.lastResult === undefined ? {} : { lastResult: context.lastResult }) });
  let judgedResult: CheckResult = { ...judged.result, variables };
  // A check that reads last_result keeps its results for the next run, as canary-checker's stored detail holds them,
  // unless a transform wrote its own detail (that is what the next run reads then).
  if (context.lastResult !== undefined && judged.result.details === result.details) judgedResult = withResultsKept(judgedResult, variables.results);
  if (judged.metrics.length > 0) judgedResult = { ...judgedResult, metrics: judged.metrics, details: { ...(judgedResult.details ?? {}), metrics: judged.metrics } };
  return judged.transformed === null ? judgedResult : { ...judgedResult, transformed: judged.transformed };
}

/** The most of a run's results kept for `last_result`, as JSON characters; more is not kept (the details stay as they are). */
const KEPT_RESULTS_CHARACTERS = 64 * 1024;

function withResultsKept(result: CheckResult, results: unknown): CheckResult {
  if (typeof results !== 'object' || results === null) return result;
  const text = JSON.stringify(results);
  if (text.length > KEPT_RESULTS_CHARACTERS) return result;
  return { ...result, details: { ...(result.details ?? {}), results: JSON.parse(text) as unknown } };
}

async function runChecker(
  type: string,
  spec: Record<string, unknown>,
  context: Omit<CheckerContext, 'timeoutMs' | 'signal'> & { signal?: AbortSignal },
  started: number,
): Promise<{ outcome: CheckOutcome | null; result: CheckResult }> {
  const timeoutMs = timeoutOf(type, spec);
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort();
  context.signal?.addEventListener('abort', onOuterAbort, { once: true });
  // A listener added to an already-aborted signal never fires: a stop between claim and start must still count.
  if (context.signal?.aborted === true) controller.abort();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ pass: false, message: `Timed out after ${timeoutMs}ms`, error: `Timed out after ${timeoutMs}ms` });
    }, timeoutMs + 1000);
  });
  try {
    const outcome = await Promise.race([dispatch(type, spec, { ...context, timeoutMs, signal: controller.signal }), deadline]);
    const result = {
      pass: outcome.pass,
      durationMs: outcome.durationMs ?? Math.round(performance.now() - started),
      message: outcome.message,
      error: outcome.pass ? null : (outcome.error ?? outcome.message),
      details: outcome.details ?? null,
      ...(outcome.artifacts === undefined ? {} : { artifacts: outcome.artifacts }),
    };
    return { outcome, result };
  } catch (error) {
    const message = describeError(error);
    return { outcome: null, result: { pass: false, durationMs: Math.round(performance.now() - started), message, error: message, details: null } };
  } finally {
    clearTimeout(timer);
    context.signal?.removeEventListener('abort', onOuterAbort);
  }
}
