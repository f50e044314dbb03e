import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventBus } from '../platform/event-bus';
import type { Executor } from './execute';
import { parseInsertBody, parsePatchBody } from './parse/body';
import { parseCallRequest, parseReadRequest, parseWriteRequest, type RawRequest, type WriteRequest } from './parse/parse-request';
import type { ParsedQuery } from './parse/query-string';
import { authorizeCall, authorizerFor, authorizeWrite, lookupRelation, refuseUnreachableFunction } from './plan/authorize';
import { argumentNames, chooseOverload, planCall } from './plan/plan-call';
import { planTableRead } from './plan/plan-page';
import { aliasCounter, planSelection, type PlanContext } from './plan/plan-read';
import { planDelete, planInsert, planUpdate, requireRootFilter, writeRefusal, type WritePlan } from './plan/plan-write';
import { refusedWrite, respondCallRows, respondCallValue, respondRead, respondWrite } from './respond';
import type { Relation, SchemaCache } from './schema-cache';
import { refuseOverlongText } from './text-limits';
import { DB_WRITTEN_EVENT, type WriteHooks, type WriteMethod } from './write-hooks';
import { setDataApiWrite } from './audit-detail';

export interface HandlerDeps {
  cache: SchemaCache;
  executor: Executor;
  hooks: WriteHooks;
  bus: EventBus;
}

type RelationRequest = FastifyRequest<{ Params: { relation: string } }>;
type FunctionRequest = FastifyRequest<{ Params: { function: string } }>;

function raw(request: FastifyRequest): RawRequest {
  return { method: request.method, url: request.raw.url ?? '', headers: request.headers, body: request.body };
}

/** The id a PATCH's filters pin: a top-level `id=eq.<id>`, which the other filters (ANDed) can only narrow. */
function pinnedId(query: ParsedQuery): string | null {
  for (const filter of query.modifiers.get('')?.filters ?? []) {
    if (filter.kind !== 'condition' || filter.negated || filter.quantifier !== null) continue;
    if (filter.field.column === 'id' && filter.field.path.length === 0 && filter.operator === 'eq') return filter.value;
  }
  return null;
}

function rolesOf(request: FastifyRequest): readonly string[] {
  return request.principal?.roles ?? [];
}

/**
 * The data API's requests, each a pipeline of stages: parse (parse/) → plan (plan/, identifiers only from the schema
 * cache, permissions included) → execute (execute.ts) → respond (respond.ts). See docs/architecture.md.
 */
export function dataApiHandlers({ cache, executor, hooks, bus }: HandlerDeps) {
  const planContext = (request: FastifyRequest): PlanContext => ({ cache, authorize: authorizerFor(rolesOf(request)), nextAlias: aliasCounter() });

  /** What every write starts with: the relation, the write permission, the method the relation takes, the select. */
  const startWrite = (request: RelationRequest, reply: FastifyReply, method: WriteMethod) => {
    const parsed = parseWriteRequest(raw(request), request.params.relation, method);
    const ctx = planContext(request);
    const relation = lookupRelation(cache, parsed.relation, 'write');
    ctx.authorize(relation.name, 'write');
    const refusal = writeRefusal(relation, method, parsed.prefs.resolution === 'merge-duplicates');
    if (refusal !== null) throw refusedWrite(reply, relation, refusal);
    return { parsed, relation, root: planSelection(ctx, relation, parsed.query) };
  };

  /**
   * Runs the write and tells the audit trail (data-api/audit-detail.ts) the table, the rows it touched and what it
   * wrote: `written` is what reached the database, after the write hooks sealed any secret.
   */
  const finishWrite = async (
    request: FastifyRequest,
    reply: FastifyReply,
    parsed: WriteRequest,
    relation: Relation,
    plan: WritePlan,
    written: ReadonlyArray<Record<string, unknown>>,
  ) => {
    const outcome = await executor.write(plan, request.principal?.personId ?? null, rolesOf(request));
    if (outcome.rows > 0) bus.publish({ name: DB_WRITTEN_EVENT, payload: { table: relation.name, method: parsed.method } });
    const action = parsed.method === 'DELETE' ? 'delete' : parsed.method === 'PATCH' ? 'update' : parsed.prefs.resolution === null ? 'create' : 'upsert';
    const fields = [...new Set(written.flatMap((row) => Object.keys(row)))];
    setDataApiWrite(request, { resource: relation.name, action, resourceIds: outcome.writtenIds, fields, rows: written });
    return respondWrite(reply, parsed, relation, outcome);
  };

  const handleRead = async (request: RelationRequest, reply: FastifyReply) => {
    const parsed = parseReadRequest(raw(request), request.params.relation);
    const relation = lookupRelation(cache, parsed.relation, 'read');
    const plan = planTableRead(planContext(request), relation, parsed);
    return respondRead(reply, parsed, plan, await executor.read(plan));
  };

  const handleInsert = async (request: RelationRequest, reply: FastifyReply) => {
    const { parsed, relation, root } = startWrite(request, reply, 'POST');
    const body = parseInsertBody(parsed.body);
    authorizeWrite(rolesOf(request), relation, 'insert', []);
    refuseOverlongText(relation, body.rows);
    await hooks.check(relation.name, body.rows, 'POST');
    const target = { upsert: parsed.prefs.resolution !== null, id: null };
    const rows = body.wellFormed ? await hooks.apply(relation.name, body.rows, 'POST', request.principal, target) : null;
    return finishWrite(request, reply, parsed, relation, planInsert(relation, root, parsed, rows), rows ?? []);
  };

  const handleUpdate = async (request: RelationRequest, reply: FastifyReply) => {
    const { parsed, relation, root } = startWrite(request, reply, 'PATCH');
    requireRootFilter(root, 'UPDATE');
    const body = parsePatchBody(parsed.body);
    authorizeWrite(rolesOf(request), relation, 'update', Object.keys(body));
    refuseOverlongText(relation, [body]);
    await hooks.check(relation.name, [body], 'PATCH');
    const [written = body] = await hooks.apply(relation.name, [body], 'PATCH', request.principal, { upsert: false, id: pinnedId(parsed.query) });
    return finishWrite(request, reply, parsed, relation, planUpdate(relation, root, parsed, written), [written]);
  };

  const handleDelete = async (request: RelationRequest, reply: FastifyReply) => {
    const { parsed, relation, root } = startWrite(request, reply, 'DELETE');
    requireRootFilter(root, 'DELETE');
    authorizeWrite(rolesOf(request), relation, 'delete', []);
    // Validators see no rows here: a table whose rows only the server writes refuses DELETE outright.
    hooks.validate(relation.name, [], 'DELETE', request.principal);
    return finishWrite(request, reply, parsed, relation, planDelete(root, parsed), []);
  };

  const handleCall = async (request: FunctionRequest, reply: FastifyReply) => {
    const parsed = parseCallRequest(raw(request), request.params.function);
    refuseUnreachableFunction(parsed.function, parsed.readOnly);
    const fn = chooseOverload(parsed.function, cache.functions.get(parsed.function) ?? [], parsed.offered, !parsed.readOnly);
    authorizeCall(rolesOf(request), fn, parsed.readOnly);
    const plan = planCall(planContext(request), fn, parsed, parsed.parseQueryFor(argumentNames(fn)));
    const tx = { readOnly: parsed.readOnly, personId: request.principal?.personId ?? null, roles: rolesOf(request) };
    // A POST call may write: the audit trail names the function and its argument names, never their values.
    if (!parsed.readOnly) setDataApiWrite(request, { resource: fn.name, action: 'execute', resourceIds: null, fields: [...parsed.offered], rows: [] });
    if (plan.kind === 'value') return respondCallValue(reply, parsed, await executor.callValue(plan, tx));
    return respondCallRows(reply, parsed, plan, await executor.callRows(plan.page, tx));
  };

  return { handleRead, handleInsert, handleUpdate, handleDelete, handleCall };
}

