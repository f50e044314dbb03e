import type { SqlParams } from '../platform/sql-params';
import { ident, nodeSql, qualified, whereParts, type Statement } from './build-sql';
import type { ReadNode } from './plan/plan-read';
import type { DbFunction, Relation } from './schema-cache';

export interface InsertOptions {
  relation: Relation;
  columns: string[];
  rows: Array<Record<string, unknown>>;
  missingDefault: boolean;
  conflict: { columns: string[]; action: 'merge' | 'ignore' } | null;
}

/** An INSERT whose values are typed by PostgreSQL from the JSON body, so a bad value is a data error (400). */
export function insertSql(options: InsertOptions, params: SqlParams): string {
  const target = qualified(options.relation.name);
  const columnList = options.columns.map(ident).join(', ');
  let sql: string;
  if (options.columns.length === 0) {
    sql = `insert into ${target} select from json_array_elements(${params.add(JSON.stringify(options.rows))}::json)`;
  } else if (options.missingDefault) {
    const rows = options.rows.map((row) => {
      const present = options.columns.some((column) => Object.hasOwn(row, column));
      // A placeholder must only be created when a cell uses it: the server rejects bound values it does not reference.
      const record = present ? `json_populate_record(null::${target}, ${params.add(JSON.stringify(row))}::json)` : '';
      const cells = options.columns.map((column) => (Object.hasOwn(row, column) ? `(${record}).${ident(column)}` : 'default'));
      return `(${cells.join(', ')})`;
    });
    sql = `insert into ${target} (${columnList}) values ${rows.join(', ')}`;
  } else {
    sql = `insert into ${target} (${columnList}) select ${columnList} from json_populate_recordset(null::${target}, ${params.add(JSON.stringify(options.rows))}::json)`;
  }
  if (options.conflict !== null) {
    const keys = options.conflict.columns.map(ident).join(', ');
    const updates = options.columns.filter((column) => !options.conflict?.columns.includes(column));
    if (options.conflict.action === 'ignore' || updates.length === 0) sql += ` on conflict (${keys}) do nothing`;
    else sql += ` on conflict (${keys}) do update set ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`;
  }
  return `${sql} returning *`;
}

export function updateSql(root: ReadNode, columns: string[], body: Record<string, unknown>, params: SqlParams): string {
  const target = qualified(root.relation.name);
  const assignments = columns.map((column) => `${ident(column)} = _v.${ident(column)}`).join(', ');
  const where = whereParts(root, params);
  return `update ${target} ${ident(root.alias)} set ${assignments} from json_populate_record(null::${target}, ${params.add(JSON.stringify(body))}::json) _v where ${where.join(' and ')} returning ${ident(root.alias)}.*`;
}

export function deleteSql(root: ReadNode, params: SqlParams): string {
  const where = whereParts(root, params);
  return `delete from ${qualified(root.relation.name)} ${ident(root.alias)} where ${where.join(' and ')} returning ${ident(root.alias)}.*`;
}

/** Ids of written rows the audit trail keeps (modules/audit): enough to find any row of a normal write. */
export const MAX_WRITTEN_IDS = 1000;

/**
 * The primary keys of the rows a write touched, as JSON text (a value per row, an array of values for a composite
 * key), whatever the request selected: the audit trail records them. Null text for a relation without a primary key.
 */
function keyValue(relation: Relation, alias: string): string | null {
  const keys = relation.primaryKey.map((key) => `${ident(alias)}.${ident(key)}`);
  if (keys.length === 0) return null;
  return keys.length === 1 ? (keys[0] ?? null) : `json_build_array(${keys.join(', ')})`;
}

function writtenIdsSql(relation: Relation): string {
  const value = keyValue(relation, '_m');
  if (value === null) return 'null::text';
  return `(select json_agg(_i.v) from (select ${value} as v from _m limit ${MAX_WRITTEN_IDS}) _i)::text`;
}

/**
 * The primary keys of the rows a DELETE's filter targets, read in the statement's own snapshot: a table that deletes
 * softly (a trigger turning the DELETE into an UPDATE) returns no deleted rows, yet its rows were the ones removed.
 */
export function targetedIdsSql(root: ReadNode, params: SqlParams): string | null {
  const value = keyValue(root.relation, root.alias);
  if (value === null) return null;
  const where = whereParts(root, params);
  return `(select json_agg(_i.v) from (select ${value} as v from ${qualified(root.relation.name)} ${ident(root.alias)} where ${where.join(' and ')} limit ${MAX_WRITTEN_IDS}) _i)::text`;
}

/**
 * Wraps a data-changing statement so that its returned rows go through the same select list as a read. `idsSql`
 * replaces the written rows' keys (targetedIdsSql for a DELETE).
 */
export function mutationSql(statement: string, root: ReadNode, params: SqlParams, singular: boolean, idsSql: string | null = null): Statement {
  const representation = { ...root, filters: [], existence: [], order: root.order, limit: null, offset: null };
  const page = nodeSql(representation, '_m', [], params);
  const body = singular ? `coalesce((json_agg(_r)->0)::text, 'null')` : `coalesce(json_agg(_r), '[]'::json)::text`;
  return {
    text: `with _m as (${statement}) select ${body} as body, count(*)::bigint as page_rows, null::bigint as total, ${idsSql ?? writtenIdsSql(root.relation)} as written_ids from (${page}) _r`,
    values: params.values,
  };
}

/** `"public"."fn"("a" => $1::type, …)`: arguments by name, each cast to its declared type. */
export function functionCallSql(fn: DbFunction, args: Map<string, unknown>, params: SqlParams): string {
  const list = fn.args
    .filter((arg) => args.has(arg.name))
    .map((arg) => `${ident(arg.name)} => ${params.add(args.get(arg.name))}::${arg.type}`);
  return `${qualified(fn.name)}(${list.join(', ')})`;
}

/** A statement that writes nothing, for a write with no rows or no columns: it answers as a write of zero rows. */
export function noRowsSql(relation: Relation): string {
  return `select * from ${qualified(relation.name)} where false`;
}
