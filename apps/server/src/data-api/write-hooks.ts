import type { Database } from '../db/database';
import type { Principal } from '../platform/principal';

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

/**
 * Lets a domain module check rows written through /api/db before they reach the database, for rules SQL cannot
 * express (e.g. a CEL script that must compile) or rules that depend on who writes (e.g. exec checks need the execute
 * permission). A validator throws an AppError to refuse the whole request.
 */
export type WriteValidator = (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null) => void;

/**
 * Rewrites rows written through /api/db into what is stored (e.g. secrets sealed before they reach the database).
 * Returns one row per row given, in order; throws an AppError to refuse the whole request.
 */
export type WriteTransform = (
  rows: ReadonlyArray<Record<string, unknown>>,
  method: WriteMethod,
  principal: Principal | null,
) => Array<Record<string, unknown>>;

/** A rule that needs the database (e.g. a stored connection's URL), run before validators and transforms. */
export type WriteCheck = (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod) => Promise<void>;

export const DB_WRITTEN_EVENT = 'db.written';

export class WriteHooks {
  private readonly validators = new Map<string, WriteValidator[]>();
  private readonly transforms = new Map<string, WriteTransform[]>();
  private readonly checks = new Map<string, WriteCheck[]>();

  register(table: string, validator: WriteValidator): void {
    this.validators.set(table, [...(this.validators.get(table) ?? []), validator]);
  }

  registerTransform(table: string, transform: WriteTransform): void {
    this.transforms.set(table, [...(this.transforms.get(table) ?? []), transform]);
  }

  registerCheck(table: string, check: WriteCheck): void {
    this.checks.set(table, [...(this.checks.get(table) ?? []), check]);
  }

  async check(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): Promise<void> {
    for (const check of this.checks.get(table) ?? []) await check(rows, method);
  }

  validate(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): void {
    for (const validator of this.validators.get(table) ?? []) validator(rows, method, principal);
  }

  /** Validators see the rows as sent; transforms then run in the order they were registered. */
  apply(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod, principal: Principal | null): Array<Record<string, unknown>> {
    this.validate(table, rows, method, principal);
    let current = [...rows];
    for (const transform of this.transforms.get(table) ?? []) {
      current = transform(current, method, principal);
      if (current.length !== rows.length) throw new Error(`A write transform of ${table} changed the number of rows`);
    }
    return current;
  }
}

// One registry per database, so test servers sharing a process never see each other's hooks.
const registries = new WeakMap<Database, WriteHooks>();

export function writeHooksFor(db: Database): WriteHooks {
  let hooks = registries.get(db);
  if (hooks === undefined) {
    hooks = new WriteHooks();
    registries.set(db, hooks);
  }
  return hooks;
}
