import type { AppError } from '../../platform/errors';
import { SqlParams } from '../../platform/sql-params';
import { apiErrors } from '../api-errors';
import type { Statement } from '../build-sql';
import { deleteSql, insertSql, mutationSql, noRowsSql, targetedIdsSql, updateSql } from '../build-write-sql';
import type { JsonRecord } from '../parse/body';
import type { WriteRequest } from '../parse/parse-request';
import type { Relation } from '../schema-cache';
import type { WriteMethod } from '../write-hooks';
import type { ReadNode } from './plan-read';

/** A write as one statement: the data-changing SQL wrapped so its rows come back through the request's select. */
export interface WritePlan {
  statement: Statement;
  /** The singular media type: a write touching other than one row is rolled back and answers 406. */
  exactlyOne: boolean;
}

/** The methods a relation answers, as an Allow header lists them. */
export function allowedMethods(relation: Relation): string[] {
  const { insert, update, delete: remove } = relation.writable;
  return ['GET', 'HEAD', ...(insert ? ['POST'] : []), ...(update ? ['PATCH'] : []), ...(remove ? ['DELETE'] : [])];
}

/**
 * A view that groups, joins or computes its rows cannot take writes; the schema cache knows which from
 * pg_relation_is_updatable, so the request is refused here rather than left for the database to fail. A merging
 * upsert updates as well as inserts. Null when the write may go ahead.
 */
export function writeRefusal(relation: Relation, method: WriteMethod, merge: boolean): AppError | null {
  const { insert, update, delete: remove } = relation.writable;
  const allowed = method === 'POST' ? insert && (!merge || update) : method === 'PATCH' ? update : remove;
  return allowed ? null : apiErrors.notWritable(relation.name, relation.kind, method, allowedMethods(relation));
}

/** PATCH and DELETE change only filtered rows: without a top-level filter they are refused before anything runs. */
export function requireRootFilter(root: ReadNode, verb: 'UPDATE' | 'DELETE'): void {
  if (root.filters.length === 0 && root.existence.length === 0) throw apiErrors.missingFilter(verb);
}

function checkWrittenColumns(relation: Relation, columns: string[]): void {
  for (const column of columns) if (!relation.columns.has(column)) throw apiErrors.columnNotFound(relation.name, column);
}

function returning(statement: string, root: ReadNode, params: SqlParams, request: WriteRequest, idsSql: string | null = null): WritePlan {
  const exactlyOne = request.media === 'object';
  return { statement: mutationSql(statement, root, params, exactlyOne, idsSql), exactlyOne };
}

/**
 * An INSERT of the body's rows (as the write hooks left them; null when the body is not an object or an array of
 * objects): `columns=` picks the columns, else the union of the rows' keys; `Prefer: resolution=` makes it an upsert
 * on the primary key or on `on_conflict=`.
 */
export function planInsert(relation: Relation, root: ReadNode, request: WriteRequest, rows: JsonRecord[] | null): WritePlan {
  if (rows === null) throw apiErrors.invalidBody('POST needs a JSON object or an array of objects');
  const { query, prefs } = request;
  const columns = query.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  checkWrittenColumns(relation, columns);
  let conflict: { columns: string[]; action: 'merge' | 'ignore' } | null = null;
  if (prefs.resolution !== null) {
    const keys = query.onConflict ?? relation.primaryKey;
    if (keys.length === 0) throw apiErrors.noPrimaryKey(relation.name);
    for (const key of keys) if (!relation.columns.has(key)) throw apiErrors.columnNotFound(relation.name, key);
    conflict = { columns: keys, action: prefs.resolution === 'merge-duplicates' ? 'merge' : 'ignore' };
  }
  const params = new SqlParams();
  const statement = rows.length === 0 ? noRowsSql(relation) : insertSql({ relation, columns, rows, missingDefault: prefs.missingDefault, conflict }, params);
  return returning(statement, root, params, request);
}

/** An UPDATE of the filtered rows with the body's columns (as the write hooks left them). */
export function planUpdate(relation: Relation, root: ReadNode, request: WriteRequest, written: JsonRecord): WritePlan {
  const columns = Object.keys(written);
  checkWrittenColumns(relation, columns);
  const params = new SqlParams();
  const statement = columns.length === 0 ? noRowsSql(relation) : updateSql(root, columns, written, params);
  return returning(statement, root, params, request);
}

export function planDelete(root: ReadNode, request: WriteRequest): WritePlan {
  const params = new SqlParams();
  const statement = deleteSql(root, params);
  // The audit trail's row ids (modules/audit): what the filter targets, whether the table deletes or hides the rows.
  return returning(statement, root, params, request, targetedIdsSql(root, params));
}
