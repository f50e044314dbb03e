import { randomUUID } from 'node:crypto';
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
 * Which rows a write reaches, as far as the request says before it runs: an upsert may meet existing rows, and a
 * PATCH filtered by `id=eq.<id>` reaches that row at most. Secrets are sealed for the row that holds them, so a
 * transform that seals needs to know it (ADR 0062).
 */
export interface WriteTarget {
  upsert: boolean;
  id: string | null;
}

const NO_TARGET: WriteTarget = { upsert: false, id: null };

/**
 * Rewrites rows written through /api/db into what is stored (e.g. secrets sealed before they reach the database).
 * Returns one row per row given, in order; throws an AppError to refuse the whole request.
 */
export type WriteTransform = (
  rows: ReadonlyArray<Record<string, unknown>>,
  method: WriteMethod,
  principal: Principal | null,
  target: WriteTarget,
) => Array<Record<string, unknown>> | Promise<Array<Record<string, unknown>>>;

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
  async apply(
    table: string,
    rows: ReadonlyArray<Record<string, unknown>>,
    method: WriteMethod,
    principal: Principal | null,
    target: WriteTarget = NO_TARGET,
  ): Promise<Array<Record<string, unknown>>> {
    this.validate(table, rows, method, principal);
    let current = [...rows];
    for (const transform of this.transforms.get(table) ?? []) {
      current = await transform(current, method, principal, target);
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

/**
 * A transform of one jsonb column whose secrets are sealed for the row that holds them (ADR 0062): a new row gets its
 * id here unless the writer chose one, so its secrets can be bound before it exists; a PATCH must pin its row
 * (`id=eq.…`) and an upsert row must carry its id when the column holds a secret, or the write is refused.
 */
export function rowScopedTransform(
  column: string,
  holdsSecrets: (value: unknown) => boolean,
  seal: (id: string, value: unknown) => unknown,
  refuse: () => Error,
): WriteTransform {
  return (rows, method, _principal, target) => {
    const freshIds = method === 'POST' && !target.upsert;
    return rows.map((row) => {
      const given = typeof row.id === 'string' ? row.id : null;
      const id = method === 'PATCH' ? target.id : (given ?? (freshIds ? randomUUID() : null));
      const withId = freshIds && given === null && id !== null ? { ...row, id } : row;
      if (row[column] === undefined) return withId;
      if (id === null) {
        if (holdsSecrets(row[column])) throw refuse();
        return withId;
      }
      return { ...withId, [column]: seal(id, row[column]) };
    });
  };
}
