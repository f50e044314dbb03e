import type { Database } from '../db/database';

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';

/**
 * Lets a domain module check rows written through /api/db before they reach the database, for rules SQL cannot
 * express (e.g. a CEL script that must compile). A validator throws an AppError to refuse the whole request.
 */
export type WriteValidator = (rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod) => void;

export const DB_WRITTEN_EVENT = 'db.written';

export class WriteHooks {
  private readonly validators = new Map<string, WriteValidator[]>();

  register(table: string, validator: WriteValidator): void {
    this.validators.set(table, [...(this.validators.get(table) ?? []), validator]);
  }

  validate(table: string, rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): void {
    for (const validator of this.validators.get(table) ?? []) validator(rows, method);
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
