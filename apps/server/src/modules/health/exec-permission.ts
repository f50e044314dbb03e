import { can } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import type { Principal } from '../../platform/principal';
import type { WriteMethod } from '../../data-api/write-hooks';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when a canary spec lists exec checks, bare or inside a `kind: Canary` resource. Wider than checksFromCanarySpec
 * on purpose: a list that does not validate still counts, so an invalid spec cannot slip an exec check past the
 * permission and be fixed later. The migration 0069 triggers apply the same rule in the database.
 */
export function canarySpecRunsExec(spec: unknown): boolean {
  if (!isRecord(spec)) return false;
  if (Object.hasOwn(spec, 'exec')) return true;
  return isRecord(spec.spec) && Object.hasOwn(spec.spec, 'exec');
}

export function isExecCheckType(type: unknown): boolean {
  return typeof type === 'string' && type.trim().toLowerCase() === 'exec';
}

export function mayExecute(roles: readonly string[]): boolean {
  return can(roles, 'canaries', 'execute');
}

/** Refuses with the coded 403 unless the roles hold the execute permission. */
export function requireExecute(roles: readonly string[], what: string): void {
  if (!mayExecute(roles)) throw errors.execPermissionRequired(what);
}

/**
 * Data API validators: a row written to canaries or checks that would hold an exec check needs execute. They see only
 * the values sent; the rows a PATCH filter or an upsert reaches are guarded by the database triggers of migration 0069.
 */
export function canaryRowsValidator(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): void {
  if (rows.some((row) => canarySpecRunsExec(row.spec))) requireExecute(principal?.roles ?? [], `${method} of a canary with exec checks`);
}

/**
 * A check row runs a script when it is an exec check, or when its spec lists exec checks: a junit report's row
 * (`resultMode: junit`) holds its canary's check lists and runs each of them.
 */
export function checkRowRunsExec(row: Readonly<Record<string, unknown>>): boolean {
  return isExecCheckType(row.type) || canarySpecRunsExec(row.spec);
}

export function checkRowsValidator(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): void {
  if (rows.some(checkRowRunsExec)) requireExecute(principal?.roles ?? [], `${method} of an exec check`);
}
