import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context';
import '../../data-api/audit-detail';
import { changesOf, fieldsOf } from './audit-values';
import './audit-detail';
import { AuditWriter, type AuditRecordInput } from './audit-writer';

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The identity flows' bodies hold passwords, codes and recovery secrets: only their field names are recorded. */
const SELF_SERVICE = '/api/auth/self-service/';
/** A response body larger than this is not parsed for the id of what it created. */
const MAX_ANSWER_FOR_ID = 65_536;
/** Rows kept in resource_ids of one audit row (the data API sends at most as many). */
const MAX_RESOURCE_IDS = 1000;

const writers = new WeakMap<FastifyInstance, AuditWriter>();

/** The writer of a built server, for the tests (and anything else) that must see rows before they look. */
export function auditWriterOf(app: FastifyInstance): AuditWriter | undefined {
  return writers.get(app);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A write under /api/ that succeeded, outside the agents' push traffic (permission 'agent', recorded in job history). */
function isAudited(request: FastifyRequest, reply: FastifyReply): boolean {
  if (READ_METHODS.has(request.method) || request.is404 || reply.statusCode >= 400) return false;
  const route = request.routeOptions.url;
  if (route === undefined || !route.startsWith('/api/')) return false;
  return request.routeOptions.config.permission !== 'agent';
}

/** The first path segment after /api/: the area of an 'authenticated' or 'public' route that names no resource. */
function areaOf(route: string): string | null {
  return route.split('/')[2] ?? null;
}

function resourceOf(request: FastifyRequest): string | null {
  const { permission, audit } = request.routeOptions.config;
  if (audit?.resource !== undefined) return audit.resource;
  if (typeof permission === 'object') return permission.resource;
  return areaOf(request.routeOptions.url ?? '');
}

function actionOf(request: FastifyRequest, status: number): string {
  const configured = request.routeOptions.config.audit?.action;
  if (configured !== undefined) return configured;
  switch (request.method) {
    case 'DELETE':
      return 'delete';
    case 'PATCH':
    case 'PUT':
      return 'update';
    default:
      // A POST that answers 201 made something; any other POST ran something (a test, a run, a retry, a sign-in).
      return status === 201 ? 'create' : 'execute';
  }
}

/** The path parameter naming the thing written (`:id`, else the only parameter), if the route has one. */
function idFromParams(params: unknown): string | null {
  if (!isRecord(params)) return null;
  if (typeof params.id === 'string') return params.id;
  const values = Object.values(params).filter((value): value is string => typeof value === 'string');
  return values.length === 1 ? (values[0] ?? null) : null;
}

/** The `id` of a JSON object answer: what a create route made. Nothing else of the answer is read. */
function idFromAnswer(payload: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > MAX_ANSWER_FOR_ID || !payload.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(payload) as unknown;
    return isRecord(parsed) && (typeof parsed.id === 'string' || typeof parsed.id === 'number') ? String(parsed.id) : null;
  } catch {
    return null;
  }
}

function bodyRows(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  return isRecord(body) ? [body] : [];
}

export function auditEntryFor(request: FastifyRequest, reply: FastifyReply, answer: unknown): AuditRecordInput {
  const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  const principal = request.principal;
  const status = reply.statusCode;
  const base = {
    at: new Date().toISOString(),
    actor_id: principal?.personId ?? null,
    actor_name: principal?.name ?? null,
    via: principal?.via ?? ('anonymous' as const),
    api_token_id: principal?.apiTokenId ?? null,
    method: request.method,
    route,
    status,
    request_id: request.id,
  };
  // The data API's body is raw text: its write is described by the data API itself (data-api/audit-detail.ts).
  const write = request.dataApiWrite;
  if (write !== null) {
    const ids = write.resourceIds;
    return {
      ...base,
      resource: write.resource,
      resource_id: ids?.length === 1 ? (ids[0] ?? null) : null,
      resource_ids: ids === null ? null : ids.slice(0, MAX_RESOURCE_IDS),
      action: write.action,
      changed_fields: write.fields,
      changes: changesOf(write.rows),
    };
  }
  const rows = bodyRows(request.body);
  return {
    ...base,
    resource: resourceOf(request),
    resource_id: idFromParams(request.params) ?? idFromAnswer(answer),
    resource_ids: null,
    action: actionOf(request, status),
    changed_fields: fieldsOf(rows),
    changes: route.startsWith(SELF_SERVICE) ? null : changesOf(rows),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The serialized answer of an audited write, kept from onSend for the id of what it created. */
    auditAnswer: unknown;
  }
}

/**
 * The global audit hook (#19): every successful non-GET request under /api/ — the data API and every domain route,
 * whoever registered it — leaves one row in audit_log, written after the response has gone (audit-writer.ts).
 * Registered by platform/http.ts before any route.
 */
export function registerAuditHook(app: FastifyInstance, context: AppContext): AuditWriter {
  const log = app.log.child({ module: 'audit' });
  const writer = new AuditWriter(context.db.pool, {
    onError: (error, rows) => log.error({ err: error, rows }, 'audit rows could not be written'),
  });
  writers.set(app, writer);
  app.decorateRequest('dataApiWrite', null);
  app.decorateRequest('auditAnswer', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (isAudited(request, reply)) request.auditAnswer = payload;
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!isAudited(request, reply)) return;
    try {
      writer.add(auditEntryFor(request, reply, request.auditAnswer));
    } catch (error) {
      log.error({ err: error, route: request.routeOptions.url }, 'an audit row could not be made');
    }
  });
  app.addHook('onClose', async () => writer.flush());
  return writer;
}
