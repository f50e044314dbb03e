import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { DB_WRITTEN_EVENT, writeHooksFor } from './write-hooks';
import { can } from '@opsdeck/shared';
import type { Database } from '../db/database';
import { AppError, errors } from '../platform/errors';
import { checkJsonDepth } from '../platform/json-depth';
import type { DomainPlugin } from '../platform/http';
import { apiErrors, fromDatabaseError } from './api-errors';
import {
  countPlanSql,
  deleteSql,
  functionCallSql,
  insertSql,
  mutationSql,
  readSql,
  SqlParams,
  updateSql,
  type ReadSql,
} from './build-sql';
import { LIMITS } from './limits';
import { parseQuery, type ParsedQuery } from './parse-request';
import { aliasCounter, allowedMethods, checkModifierPaths, hasRootFilter, planRead, writeRefusal, type Access, type Authorize, type ReadNode } from './plan';
import { resourceFor, writeGuards, type WriteAction } from './resource-map';
import { appliedPreferences, negotiate, parsePreferences, parseRangeHeader, rangeOutcome, type Preferences } from './respond';
import { SchemaCache, type DbFunction, type Relation } from './schema-cache';

const caches = new WeakMap<Database, SchemaCache>();

/** The schema cache serving a database, so tests (and admin tooling) can `reload()` it after DDL. */
export function schemaCacheFor(db: Database): SchemaCache | undefined {
  return caches.get(db);
}

/**
 * Named (prepared) statements skip re-planning, which is most of the cost of a small query. Each distinct SQL shape
 * gets a name while there is room, so a flood of odd requests cannot make the server hold unbounded statements.
 * Only with PostgreSQL: the embedded PGlite socket multiplexes every connection onto one session, where a name one
 * connection prepared collides with the same name prepared by another.
 */
const MAX_PREPARED = 256;
const preparedNames = new Map<string, string>();
let usePrepared = false;

function queryConfig(text: string, values: unknown[]): pg.QueryConfig {
  if (!usePrepared) return { text, values };
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `data_api_${preparedNames.size}`;
    preparedNames.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}

interface ResultRow {
  body: string | null;
  page_rows: number | string;
  total: number | string | null;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

function authorizerFor(request: FastifyRequest): Authorize {
  const roles = request.principal?.roles ?? [];
  return (name: string, access: Access) => {
    const resource = resourceFor(name);
    if (resource === null || !can(roles, resource, access)) throw apiErrors.permissionDenied('table', name, access);
  };
}

/**
 * The guards a write passes besides the relation's own: changes to people beyond their profile, and writes through a
 * view to the tables beneath it (resource-map.ts, writeGuards).
 */
function authorizeWrite(request: FastifyRequest, relation: Relation, action: WriteAction, columns: string[]): void {
  const roles = request.principal?.roles ?? [];
  for (const guard of writeGuards(relation.name, action, columns, relation.reads)) {
    if (guard.resource === null) throw apiErrors.permissionDenied('table', guard.table, 'write');
    if (can(roles, guard.resource, 'write')) continue;
    throw guard.resource === resourceFor(guard.table) ? apiErrors.permissionDenied('table', guard.table, 'write') : apiErrors.guardedWrite(guard.table, guard.resource);
  }
}

function searchParams(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const index = url.indexOf('?');
  try {
    return new URLSearchParams(index < 0 ? '' : url.slice(index + 1));
  } catch {
    throw apiErrors.parse('The query string is not valid URL encoding');
  }
}

function checkRequestShape(request: FastifyRequest): void {
  if (Buffer.byteLength(request.raw.url ?? '') > LIMITS.maxUrlBytes) throw apiErrors.uriTooLong();
  for (const header of ['accept-profile', 'content-profile']) {
    const value = request.headers[header];
    if (typeof value === 'string' && value !== '' && value !== 'public') throw apiErrors.schemaNotAllowed(value);
  }
}

function lookupRelation(cache: SchemaCache, name: string, access: Access): Relation {
  if (resourceFor(name) === null) throw apiErrors.permissionDenied('table', name, access);
  const relation = cache.relations.get(name);
  if (relation === undefined) throw apiErrors.tableNotFound(name);
  return relation;
}

function toNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function parseBody(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  if (raw.trim() === '') return null;
  checkJsonDepth(raw);
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw apiErrors.invalidBody(error instanceof Error ? error.message : 'Malformed JSON');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function plannedCount(pool: pg.Pool, root: ReadNode, source: string, params: SqlParams): Promise<number> {
  const text = `explain (format json) ${countPlanSql(root, source, params)}`;
  const result = await pool.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(text, params.values);
  return result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
}

/** Exact up to the row cap, the planner's estimate beyond it, so a count never scans a huge table. */
async function estimatedCount(pool: pg.Pool, root: ReadNode, source: string): Promise<number> {
  const params = new SqlParams();
  const bounded = `select count(*)::int as n from (${countPlanSql(root, source, params)} limit ${LIMITS.maxRows + 1}) _c`;
  const result = await pool.query<{ n: number }>(bounded, params.values);
  const exact = result.rows[0]?.n ?? 0;
  return exact <= LIMITS.maxRows ? exact : Math.max(exact, await plannedCount(pool, root, source, new SqlParams()));
}

/** Runs statements in one transaction on one pooled client, with the request's statement timeout. */
async function inTransaction<T>(
  pool: pg.Pool,
  readOnly: boolean,
  personId: string | null,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(readOnly ? 'begin read only' : 'begin');
    // The changelog triggers read the author from opsdeck.person_id; both settings end with the transaction.
    await client.query(`select set_config('statement_timeout', $1, true), set_config('opsdeck.person_id', $2, true)`, [
      String(LIMITS.statementTimeoutMs),
      personId ?? '',
    ]);
    const value = await work(client);
    await client.query('commit');
    return value;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Thrown inside a transaction to roll it back when a singular response would not hold exactly one row. */
class SingularViolation extends Error {
  constructor(readonly rows: number) {
    super('singular');
  }
}

function sendJson(reply: FastifyReply, status: number, body: string | null, mediaType: 'array' | 'object'): FastifyReply {
  reply.status(status).header('content-type', mediaType === 'object' ? OBJECT_TYPE : JSON_TYPE);
  return reply.send(body ?? '');
}

function rootPaging(root: ReadNode, query: ParsedQuery, range: { offset: number; limit: number | null } | null): void {
  const modifiers = query.modifiers.get('');
  const offset = modifiers?.offset ?? range?.offset ?? 0;
  const requested = modifiers?.limit ?? range?.limit ?? null;
  root.offset = offset;
  root.limit = Math.min(requested ?? LIMITS.maxRows, LIMITS.maxRows);
}

interface ReadOutcome {
  body: string;
  rows: number;
  total: number | null;
}

async function read(pool: pg.Pool, root: ReadNode, source: string, params: SqlParams, prefs: Preferences, singular: boolean): Promise<ReadOutcome> {
  const exact = prefs.count === 'exact';
  const sql: ReadSql = readSql(root, source, { singular, exactCount: exact }, params);
  const result = await pool.query<ResultRow>(queryConfig(sql.text, sql.values));
  const row = result.rows[0];
  let total = toNumber(row?.total ?? null);
  if (prefs.count === 'planned') total = await plannedCount(pool, root, source, new SqlParams());
  if (prefs.count === 'estimated') total = await estimatedCount(pool, root, source);
  return { body: row?.body ?? '[]', rows: Number(row?.page_rows ?? 0), total };
}

export const dataApiPlugin: DomainPlugin = {
  name: 'data-api',
  async register(app, context) {
    const pool = context.db.pool;
    usePrepared = context.db.mode === 'postgres';
    const cache = new SchemaCache(pool);
    const hooks = writeHooksFor(context.db);
    await cache.reload();
    caches.set(context.db, cache);

    // The body is parsed here rather than by Fastify so that malformed JSON answers PostgREST's PGRST102.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(['application/json', 'application/vnd.pgrst.object+json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });

    app.setErrorHandler((error, request, reply) => {
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
    });

    const handleRead = async (request: FastifyRequest<{ Params: { relation: string } }>, reply: FastifyReply) => {
      checkRequestShape(request);
      const relation = lookupRelation(cache, request.params.relation, 'read');
      const query = parseQuery(searchParams(request));
      const prefs = parsePreferences(request.headers.prefer);
      const mediaType = negotiate(request.headers.accept);
      const range = parseRangeHeader(header(request, 'range'), header(request, 'range-unit'));
      const used = new Set<string>();
      const root = planRead({ cache, authorize: authorizerFor(request), nextAlias: aliasCounter() }, relation, query.select, query, '', 0, used);
      checkModifierPaths(query, used);
      rootPaging(root, query, range);
      const outcome = await read(pool, root, qualifiedSource(relation), new SqlParams(), prefs, mediaType === 'object');
      if (mediaType === 'object' && outcome.rows !== 1) throw apiErrors.singular(outcome.rows);
      const { contentRange, status } = rangeOutcome(root.offset ?? 0, outcome.rows, outcome.total);
      if (status === 416) throw apiErrors.invalidRange(`An offset of ${root.offset ?? 0} was requested, but there are only ${outcome.total ?? 0} rows.`);
      reply.header('content-range', contentRange);
      const applied = appliedPreferences({ ...prefs, return: null, resolution: null, missingDefault: false });
      if (applied !== null) reply.header('preference-applied', applied);
      return sendJson(reply, status, request.method === 'HEAD' ? null : outcome.body, mediaType);
    };

    const handleWrite = async (request: FastifyRequest<{ Params: { relation: string } }>, reply: FastifyReply) => {
      checkRequestShape(request);
      const method = request.method as 'POST' | 'PATCH' | 'DELETE';
      const relation = lookupRelation(cache, request.params.relation, 'write');
      const authorize = authorizerFor(request);
      authorize(relation.name, 'write');
      const query = parseQuery(searchParams(request));
      const prefs = parsePreferences(request.headers.prefer);
      const refusal = writeRefusal(relation, method, prefs.resolution === 'merge-duplicates');
      if (refusal !== null) {
        reply.header('allow', allowedMethods(relation).join(', '));
        throw refusal;
      }
      const mediaType = negotiate(request.headers.accept);
      const used = new Set<string>();
      const root = planRead({ cache, authorize, nextAlias: aliasCounter() }, relation, query.select, query, '', 0, used);
      checkModifierPaths(query, used);
      const params = new SqlParams();
      let statement: string;
      if (method === 'POST') {
        const body = parseBody(request.body);
        authorizeWrite(request, relation, 'insert', []);
        await hooks.check(relation.name, Array.isArray(body) ? body.filter(isRecord) : isRecord(body) ? [body] : [], method);
        statement = insertStatement(relation, query, prefs, writtenBody(body, (rows) => hooks.apply(relation.name, rows, method, request.principal)), params);
      } else if (method === 'PATCH') {
        if (!hasRootFilter(root)) throw apiErrors.missingFilter('UPDATE');
        const body = parseBody(request.body);
        if (!isRecord(body)) throw apiErrors.invalidBody('PATCH needs a JSON object');
        authorizeWrite(request, relation, 'update', Object.keys(body));
        await hooks.check(relation.name, [body], method);
        const [written = body] = hooks.apply(relation.name, [body], method, request.principal);
        const columns = Object.keys(written);
        for (const column of columns) if (!relation.columns.has(column)) throw apiErrors.columnNotFound(relation.name, column);
        statement = columns.length === 0 ? `select * from ${qualifiedSource(relation)} where false` : updateSql(root, columns, written, params);
      } else {
        if (!hasRootFilter(root)) throw apiErrors.missingFilter('DELETE');
        authorizeWrite(request, relation, 'delete', []);
        statement = deleteSql(root, params);
      }
      const singular = mediaType === 'object';
      const sql = mutationSql(statement, root, params, singular);
      let outcome: { body: string; rows: number };
      try {
        outcome = await inTransaction(pool, false, request.principal?.personId ?? null, async (client) => {
          const result = await client.query<ResultRow>(queryConfig(sql.text, sql.values));
          const rows = Number(result.rows[0]?.page_rows ?? 0);
          if (singular && rows !== 1) throw new SingularViolation(rows);
          return { body: result.rows[0]?.body ?? '[]', rows };
        });
      } catch (error) {
        if (error instanceof SingularViolation) throw apiErrors.singular(error.rows);
        throw error;
      }
      if (outcome.rows > 0) context.bus.publish({ name: DB_WRITTEN_EVENT, payload: { table: relation.name, method } });
      const total = prefs.count === null ? null : outcome.rows;
      const totalText = total === null ? '*' : String(total);
      reply.header('content-range', method === 'POST' || outcome.rows === 0 ? `*/${totalText}` : `0-${outcome.rows - 1}/${totalText}`);
      const applied = appliedPreferences(prefs);
      if (applied !== null) reply.header('preference-applied', applied);
      if (prefs.return === 'representation') return sendJson(reply, method === 'POST' ? 201 : 200, outcome.body, mediaType);
      if (method === 'POST' && prefs.return === 'headers-only') {
        const location = locationFor(relation, outcome.body);
        if (location !== null) reply.header('location', location);
      }
      return reply.status(method === 'POST' ? 201 : 204).send();
    };

    const handleRpc = async (request: FastifyRequest<{ Params: { function: string } }>, reply: FastifyReply) => {
      checkRequestShape(request);
      const name = request.params.function;
      const overloads = cache.functions.get(name) ?? [];
      const isGet = request.method === 'GET' || request.method === 'HEAD';
      const params = searchParams(request);
      let provided: Map<string, unknown>;
      let fn: DbFunction;
      if (isGet) {
        fn = chooseOverload(name, overloads, new Set(params.keys()), false);
        provided = new Map();
      } else {
        const body = parseBody(request.body) ?? {};
        if (!isRecord(body)) throw apiErrors.invalidBody('Function arguments must be a JSON object');
        fn = chooseOverload(name, overloads, new Set(Object.keys(body)), true);
        provided = new Map(Object.entries(body).map(([key, value]) => [key, argumentValue(value, fn, key)]));
      }
      const resource = resourceFor(fn.name);
      const access: Access = isGet || !fn.volatile ? 'read' : 'write';
      if (resource === null || !can(request.principal?.roles ?? [], resource, access)) throw apiErrors.permissionDenied('function', fn.name, access);
      const query = parseQuery(params, new Set(fn.args.map((arg) => arg.name)));
      if (isGet) provided = new Map(query.args);
      const prefs = parsePreferences(request.headers.prefer);
      const mediaType = negotiate(request.headers.accept);
      const sqlParams = new SqlParams();
      const call = functionCallSql(fn, provided, sqlParams);
      if (fn.rowRelation === null) {
        const text = fn.returnsVoid
          ? `select ${call}`
          : fn.returnsSet
            ? `select coalesce(json_agg(_v), '[]'::json)::text as body from ${call} _v`
            : `select to_json(${call})::text as body`;
        const result = await inTransaction(pool, isGet, request.principal?.personId ?? null, (client) => client.query<{ body: string | null }>(text, sqlParams.values));
        if (fn.returnsVoid) return reply.status(204).send();
        return sendJson(reply, 200, request.method === 'HEAD' ? null : (result.rows[0]?.body ?? 'null'), 'array');
      }
      const used = new Set<string>();
      const root = planRead({ cache, authorize: authorizerFor(request), nextAlias: aliasCounter() }, fn.rowRelation, query.select, query, '', 0, used);
      checkModifierPaths(query, used);
      const range = parseRangeHeader(header(request, 'range'), header(request, 'range-unit'));
      rootPaging(root, query, range);
      const singular = mediaType === 'object' || !fn.returnsSet;
      const sql = readSql(root, call, { singular, exactCount: prefs.count !== null }, sqlParams);
      const result = await inTransaction(pool, isGet, request.principal?.personId ?? null, (client) => client.query<ResultRow>(queryConfig(sql.text, sql.values)));
      const row = result.rows[0];
      const rows = Number(row?.page_rows ?? 0);
      if (mediaType === 'object' && rows !== 1) throw apiErrors.singular(rows);
      const { contentRange, status } = rangeOutcome(root.offset ?? 0, rows, toNumber(row?.total ?? null));
      reply.header('content-range', contentRange);
      return sendJson(reply, status === 416 ? 200 : status, request.method === 'HEAD' ? null : (row?.body ?? '[]'), singular && fn.returnsSet ? 'object' : 'array');
    };

    const config = { permission: 'authenticated' as const };
    const hide = { hide: true };
    app.get('/api/db/:relation', { config, schema: hide }, handleRead);
    app.post('/api/db/:relation', { config, schema: hide }, handleWrite);
    app.patch('/api/db/:relation', { config, schema: hide }, handleWrite);
    app.delete('/api/db/:relation', { config, schema: hide }, handleWrite);
    app.get('/api/db/rpc/:function', { config, schema: hide }, handleRpc);
    app.post('/api/db/rpc/:function', { config, schema: hide }, handleRpc);
  },
};

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function qualifiedSource(relation: Relation): string {
  return `"public"."${relation.name.replace(/"/g, '""')}"`;
}

/** The POST body with its rows passed through the write hooks; a body that is not rows is left for insertStatement to refuse. */
function writtenBody(body: unknown, hook: (rows: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): unknown {
  if (isRecord(body)) return hook([body])[0];
  if (Array.isArray(body) && body.every(isRecord)) return hook(body);
  return body;
}

function insertStatement(relation: Relation, query: ParsedQuery, prefs: Preferences, body: unknown, params: SqlParams): string {
  const rows = Array.isArray(body) ? body : [body];
  if (body === null || !rows.every(isRecord)) throw apiErrors.invalidBody('POST needs a JSON object or an array of objects');
  const records = rows as Array<Record<string, unknown>>;
  const columns = query.columns ?? [...new Set(records.flatMap((row) => Object.keys(row)))];
  for (const column of columns) if (!relation.columns.has(column)) throw apiErrors.columnNotFound(relation.name, column);
  let conflict: { columns: string[]; action: 'merge' | 'ignore' } | null = null;
  if (prefs.resolution !== null) {
    const keys = query.onConflict ?? relation.primaryKey;
    if (keys.length === 0) throw apiErrors.noPrimaryKey(relation.name);
    for (const key of keys) if (!relation.columns.has(key)) throw apiErrors.columnNotFound(relation.name, key);
    conflict = { columns: keys, action: prefs.resolution === 'merge-duplicates' ? 'merge' : 'ignore' };
  }
  if (records.length === 0) return `select * from ${qualifiedSource(relation)} where false`;
  return insertSql({ relation, columns, rows: records, missingDefault: prefs.missingDefault, conflict }, params);
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

/**
 * Picks the overload whose required arguments are all given; for POST every given key must be an argument, for GET
 * the other keys are filters on the result.
 */
function chooseOverload(name: string, overloads: DbFunction[], keys: Set<string>, strict: boolean): DbFunction {
  let best: DbFunction | null = null;
  let bestMatched = -1;
  for (const fn of overloads) {
    const names = new Set(fn.args.map((arg) => arg.name));
    if (fn.args.some((arg) => !arg.optional && !keys.has(arg.name))) continue;
    if (strict && [...keys].some((key) => !names.has(key))) continue;
    const matched = [...keys].filter((key) => names.has(key)).length;
    if (matched > bestMatched) {
      best = fn;
      bestMatched = matched;
    }
  }
  if (best === null) throw apiErrors.functionNotFound(name, [...keys]);
  return best;
}

/** Function arguments travel as text; JSON-typed and composite values are sent as JSON, arrays as arrays. */
function argumentValue(value: unknown, fn: DbFunction, key: string): unknown {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const type = fn.args.find((arg) => arg.name === key)?.type ?? '';
  if (Array.isArray(value) && type.endsWith('[]')) return value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : item));
  return JSON.stringify(value);
}
