import { can } from '@opsdeck/shared';
import { apiErrors } from '../api-errors';
import { resourceFor, writeGuards, type WriteAction } from '../resource-map';
import type { DbFunction, Relation, SchemaCache } from '../schema-cache';
import type { Access, Authorize } from './plan-read';

/** Refuses a table or view that maps to no resource (no role reaches it) before saying whether it exists. */
export function lookupRelation(cache: SchemaCache, name: string, access: Access): Relation {
  if (resourceFor(name) === null) throw apiErrors.permissionDenied('table', name, access);
  const relation = cache.relations.get(name);
  if (relation === undefined) throw apiErrors.tableNotFound(name);
  return relation;
}

export function authorizerFor(roles: readonly string[]): Authorize {
  return (name: string, access: Access) => {
    const resource = resourceFor(name);
    if (resource === null || !can(roles, resource, access)) throw apiErrors.permissionDenied('table', name, access);
  };
}

/**
 * The guards a write passes besides the relation's own: changes to people beyond their profile, and writes through a
 * view to the tables beneath it (resource-map.ts, writeGuards).
 */
export function authorizeWrite(roles: readonly string[], relation: Relation, action: WriteAction, columns: string[]): void {
  for (const guard of writeGuards(relation.name, action, columns, relation.reads)) {
    if (guard.resource === null) throw apiErrors.permissionDenied('table', guard.table, 'write');
    if (can(roles, guard.resource, 'write')) continue;
    throw guard.resource === resourceFor(guard.table) ? apiErrors.permissionDenied('table', guard.table, 'write') : apiErrors.guardedWrite(guard.table, guard.resource);
  }
}

/** GET calls, and POST calls of stable or immutable functions, read; a POST call of a volatile function writes. */
/**
 * Like lookupRelation for functions: a name of the identity machinery is refused before it is looked up, so the answer
 * is the same 403 whether such a function exists, is a trigger function the API never calls, or does not exist.
 */
export function refuseUnreachableFunction(name: string, readOnly: boolean): void {
  if (resourceFor(name) === null) throw apiErrors.permissionDenied('function', name, readOnly ? 'read' : 'write');
}

export function authorizeCall(roles: readonly string[], fn: DbFunction, readOnly: boolean): void {
  const resource = resourceFor(fn.name);
  const access: Access = readOnly || !fn.volatile ? 'read' : 'write';
  if (resource === null || !can(roles, resource, access)) throw apiErrors.permissionDenied('function', fn.name, access);
}
