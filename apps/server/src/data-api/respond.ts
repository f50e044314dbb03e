import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../platform/errors';
import { apiErrors, fromDatabaseError } from './api-errors';
import type { Outcome } from './execute';
import { isRecord } from './parse/body';
import type { MediaType, Preferences } from './parse/headers';
import type { CallRequest, ReadRequest, WriteRequest } from './parse/parse-request';
import type { RowsCallPlan } from './plan/plan-call';
import type { PagePlan } from './plan/plan-page';
import { allowedMethods } from './plan/plan-write';
import type { Relation, SchemaCache } from './schema-cache';

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

function sendJson(reply: FastifyReply, status: number, body: string | null, mediaType: MediaType): FastifyReply {
  reply.status(status).header('content-type', mediaType === 'object' ? OBJECT_TYPE : JSON_TYPE);
  return reply.send(body ?? '');
}

/** The preferences the response honoured, echoed in `Preference-Applied` as PostgREST does. */
export function appliedPreferences(prefs: Preferences): string | null {
  const applied: string[] = [];
  if (prefs.return !== null) applied.push(`return=${prefs.return}`);
  if (prefs.count !== null) applied.push(`count=${prefs.count}`);
  if (prefs.resolution !== null) applied.push(`resolution=${prefs.resolution}`);
  if (prefs.missingDefault) applied.push('missing=default');
  return applied.length === 0 ? null : applied.join(', ');
}

function sendApplied(reply: FastifyReply, prefs: Preferences): void {
  const applied = appliedPreferences(prefs);
  if (applied !== null) reply.header('preference-applied', applied);
}

/**
 * The `Content-Range` value and status for a page: `0-9/100` and 206 when the page is part of a known total,
 * `*\/100` for an empty page, and 416 when the page starts past the end of a known total.
 */
export function rangeOutcome(offset: number, rows: number, total: number | null): { contentRange: string; status: number } {
  const totalText = total === null ? '*' : String(total);
  const contentRange = rows === 0 ? `*/${totalText}` : `${offset}-${offset + rows - 1}/${totalText}`;
  if (total === null) return { contentRange, status: 200 };
  if (offset > total) return { contentRange, status: 416 };
  if (rows < total) return { contentRange, status: 206 };
  return { contentRange, status: 200 };
}

export function respondRead(reply: FastifyReply, request: ReadRequest, plan: PagePlan, outcome: Outcome): FastifyReply {
  const { contentRange, status } = rangeOutcome(plan.offset, outcome.rows, outcome.total);
  if (status === 416) throw apiErrors.invalidRange(`An offset of ${plan.offset} was requested, but there are only ${outcome.total ?? 0} rows.`);
  reply.header('content-range', contentRange);
  // A read honours only the count preference.
  sendApplied(reply, { ...request.prefs, return: null, resolution: null, missingDefault: false });
  return sendJson(reply, status, request.head ? null : outcome.body, request.media);
}

/** `Location: /table?pk=eq.value` for a single created row, as PostgREST sends with `return=headers-only`. */
function locationFor(relation: Relation, body: string): string | null {
  if (relation.primaryKey.length === 0) return null;
  const rows = JSON.parse(body) as unknown;
  const first = Array.isArray(rows) && rows.length === 1 ? (rows[0] as unknown) : null;
  if (!isRecord(first)) return null;
  const parts = relation.primaryKey.map((key) => `${encodeURIComponent(key)}=eq.${encodeURIComponent(String(first[key] ?? ''))}`);
  return `/${relation.name}?${parts.join('&')}`;
}

/** 201 for POST, else 200 with the rows (`return=representation`) or 204; every count preference counts the rows written. */
export function respondWrite(reply: FastifyReply, request: WriteRequest, relation: Relation, outcome: Outcome): FastifyReply {
  const { method, prefs } = request;
  const totalText = prefs.count === null ? '*' : String(outcome.rows);
  reply.header('content-range', method === 'POST' || outcome.rows === 0 ? `*/${totalText}` : `0-${outcome.rows - 1}/${totalText}`);
  sendApplied(reply, prefs);
  if (prefs.return === 'representation') return sendJson(reply, method === 'POST' ? 201 : 200, outcome.body, request.media);
  if (method === 'POST' && prefs.return === 'headers-only') {
    const location = locationFor(relation, outcome.body);
    if (location !== null) reply.header('location', location);
  }
  return reply.status(method === 'POST' ? 201 : 204).send();
}

/** A write the relation cannot take answers 405 with the methods it does answer. */
export function refusedWrite(reply: FastifyReply, relation: Relation, refusal: AppError): AppError {
  reply.header('allow', allowedMethods(relation).join(', '));
  return refusal;
}

/** A call's single value as JSON, or 204 when the function returns void (body null). */
export function respondCallValue(reply: FastifyReply, request: CallRequest, body: string | null): FastifyReply {
  if (body === null) return reply.status(204).send();
  return sendJson(reply, 200, request.head ? null : body, 'array');
}

/** A call's rows as a page; unlike a table read, an offset past the total is not an error. */
export function respondCallRows(reply: FastifyReply, request: CallRequest, plan: RowsCallPlan, outcome: Outcome): FastifyReply {
  const { contentRange, status } = rangeOutcome(plan.page.offset, outcome.rows, outcome.total);
  reply.header('content-range', contentRange);
  return sendJson(reply, status === 416 ? 200 : status, request.head ? null : outcome.body, plan.contentType);
}

/**
 * Every failure in PostgREST's shape: the API's own errors as they are, database errors mapped to their SQLSTATE and
 * status (api-errors.ts), Fastify's own 4xx kept, and anything else a 500 that says nothing of its cause.
 */
export function errorResponder(cache: SchemaCache) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const mapped = error instanceof AppError ? error : fromDatabaseError(error, (index) => cache.uniqueIndexes.get(index) ?? null);
    if (mapped !== null) {
      if (mapped.statusCode >= 500) request.log.error({ err: error }, 'data api failure');
      return reply.status(mapped.statusCode).header('content-type', JSON_TYPE).send(mapped.toBody());
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = (error as { code?: unknown }).code;
      return reply
        .status(status)
        .send(new AppError(status, typeof code === 'string' ? code : `PGRST${status}`, error instanceof Error ? error.message : 'Bad request').toBody());
    }
    request.log.error({ err: error }, 'data api failure');
    return reply.status(500).send(errors.internal().toBody());
  };
}
