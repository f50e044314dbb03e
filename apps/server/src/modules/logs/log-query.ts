import type pg from 'pg';
import {
  isDateMath,
  isTimeRangeKey,
  LOG_DEFAULT_START,
  LOG_LINES_DEFAULT_LIMIT,
  LOG_LINES_MAX_LIMIT,
  logBackendTypeOf,
  parseDateMath,
  TIME_RANGE_MINUTES,
  type LogsResponse,
} from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { logErrors } from './log-errors';
import { parseLogBackendSpec } from './log-backend-save-rules';
import { findLogSubject, selectLogBackend } from './log-subjects';
import type { LogSubjectContext } from './log-templates';
import { backendConnection } from './backends/backend-http';
import { queryFileBackend } from './backends/file-backend';
import { queryKubernetesBackend } from './backends/kubernetes-backend';
import { queryLokiBackend } from './backends/loki-backend';
import { querySearchBackend } from './backends/search-backend';
import { LogBackendError, type LogQuery, type LogResult } from './backends/types';

/** Every backend call, file reads included, ends within this; a slower backend is a 502, not a hung request. */
export const LOG_BACKEND_TIMEOUT_MS = 10_000;
/** Search text longer than this is refused: it is typed by a person, and it ends up in the backend's query. */
export const MAX_SEARCH_CHARS = 1000;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `15m`, `now-1h` or an ISO 8601 time, as a Date not after `now`; OD_LOGS_START otherwise. */
export function parseLogStart(raw: string | undefined, now: Date): Date {
  const value = (raw ?? '').trim() === '' ? LOG_DEFAULT_START : (raw ?? '').trim();
  let start: Date | null = null;
  if (isTimeRangeKey(value)) start = new Date(now.getTime() - TIME_RANGE_MINUTES[value] * 60_000);
  else if (isDateMath(value)) start = parseDateMath(value, now);
  else if (/^\d+(?:mo|[smhdwy])$/.test(value)) start = parseDateMath(`now-${value}`, now);
  else if (ISO_TIME.test(value)) {
    const time = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) || value.length === 10 ? value : `${value.replace(' ', 'T')}Z`);
    start = Number.isNaN(time) ? null : new Date(time);
  }
  if (start === null || Number.isNaN(start.getTime()) || start.getTime() > now.getTime()) throw logErrors.start(value.slice(0, 64));
  return start;
}

/** A whole number from 1 to LOG_LINES_MAX_LIMIT; OD_LOGS_LIMIT otherwise. */
export function parseLogLimit(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return LOG_LINES_DEFAULT_LIMIT;
  if (!/^\d{1,7}$/.test(raw.trim())) throw logErrors.limit(raw.slice(0, 32));
  const limit = Number(raw.trim());
  if (limit < 1 || limit > LOG_LINES_MAX_LIMIT) throw logErrors.limit(raw.slice(0, 32));
  return limit;
}

export interface LogsRequest {
  id?: string | undefined;
  name?: string | undefined;
  query?: string | undefined;
  start?: string | undefined;
  limit?: string | undefined;
}

export interface LogsDeps {
  pool: pg.Pool;
  secretKey: Buffer;
  roots: readonly string[];
  /** Refuses (403) a caller who may not read the subject: topologies for a component, the catalog for an item. */
  authorizeSubject(subject: LogSubjectContext): void;
  onBackendError?(backend: string, error: unknown): void;
  now?: () => Date;
  timeoutMs?: number;
}

/** `GET /api/logs`: the input checked in order (id, limit, start, subject, selector), then the backend queried once. */
export async function fetchLogs(deps: LogsDeps, request: LogsRequest): Promise<LogsResponse> {
  const now = deps.now?.() ?? new Date();
  const id = (request.id ?? '').trim();
  if (id === '') throw logErrors.id('id is missing');
  const limit = parseLogLimit(request.limit);
  const start = parseLogStart(request.start, now);
  const search = (request.query ?? '').trim();
  if (search.length > MAX_SEARCH_CHARS) throw new AppError(400, 'OD_LOGS_QUERY', `The search text is longer than ${MAX_SEARCH_CHARS} characters`, 'query', 'Search for a shorter text');
  const subject = await findLogSubject(deps.pool, id);
  deps.authorizeSubject(subject);
  const backend = await selectLogBackend(deps.pool, subject, (request.name ?? '').trim());
  let spec;
  try {
    spec = parseLogBackendSpec(backend.spec);
  } catch {
    throw logErrors.unreachable(backend.name, 'its stored spec is not valid: open it in Settings → Log Backends and save it again');
  }
  const timeoutMs = deps.timeoutMs ?? LOG_BACKEND_TIMEOUT_MS;
  const query: LogQuery = { subject, selectorLabels: backend.labels, search, start, end: now, limit, signal: AbortSignal.timeout(timeoutMs) };
  let result: LogResult;
  try {
    if (spec.file !== undefined) result = await queryFileBackend(spec.file, query, deps.roots, timeoutMs);
    else if (spec.loki !== undefined) result = await queryLokiBackend(spec.loki, query, await backendConnection(deps.pool, deps.secretKey, spec.loki.connection));
    else if (spec.opensearch !== undefined) {
      result = await querySearchBackend('opensearch', spec.opensearch, query, await backendConnection(deps.pool, deps.secretKey, spec.opensearch.connection));
    } else if (spec.elasticsearch !== undefined) {
      result = await querySearchBackend('elasticsearch', spec.elasticsearch, query, await backendConnection(deps.pool, deps.secretKey, spec.elasticsearch.connection));
    } else if (spec.kubernetes !== undefined) {
      result = await queryKubernetesBackend(spec.kubernetes, query, await backendConnection(deps.pool, deps.secretKey, spec.kubernetes.connection));
    } else throw new LogBackendError('its spec names no backend');
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.onBackendError?.(backend.name, error);
    throw logErrors.unreachable(backend.name, error instanceof LogBackendError ? error.message : 'the call failed');
  }
  return { ...result, backend: { id: backend.id, name: backend.name, type: logBackendTypeOf(spec) ?? 'file' } };
}
