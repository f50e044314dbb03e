import type { Database } from '../db/database';

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

/**
 * Lets a domain module check rows written through /api/db before they reach the database, for rules SQL cannot
 * express (e.g. a CEL script that must compile). A validator throws an AppError to refuse the whole request.
 */
export type WriteValidator = (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod) => void;

/**
 * Rewrites rows written through /api/db into what is stored (e.g. secrets sealed before they reach the database).
 * Returns one row per row given, in order; throws an AppError to refuse the whole request.
 */
export type WriteTransform = (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod) => Array<Record<string, unknown>>;

export const DB_WRITTEN_EVENT = 'db.written';

export class WriteHooks {
  private readonly validators = new Map<string, WriteValidator[]>();
  private readonly transforms = new Map<string, WriteTransform[]>();

  register(table: string, validator: WriteValidator): void {
    this.validators.set(table, [...(this.validators.get(table) ?? []), validator]);
  }

  registerTransform(table: string, transform: WriteTransform): void {
    this.transforms.set(table, [...(this.transforms.get(table) ?? []), transform]);
  }

  validate(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): void {
    for (const validator of this.validators.get(table) ?? []) validator(rows, method);
  }

  /** Validators see the rows as sent; transforms then run in the order they were registered. */
  apply(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): Array<Record<string, unknown>> {
    this.validate(table, rows, method);
    let current = [...rows];
    for (const transform of this.transforms.get(table) ?? []) {
      current = transform(current, method);
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
