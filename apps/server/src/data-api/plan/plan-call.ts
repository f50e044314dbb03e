import { apiErrors } from '../api-errors';
import { SqlParams } from '../../platform/sql-params';
import type { Statement } from '../build-sql';
import { functionCallSql } from '../build-write-sql';
import type { JsonRecord } from '../parse/body';
import type { MediaType } from '../parse/headers';
import type { CallRequest } from '../parse/parse-request';
import type { ParsedQuery } from '../parse/query-string';
import type { DbFunction } from '../schema-cache';
import { refuseOverlongArguments } from '../text-limits';
import { planRowsRead, type PagePlan } from './plan-page';
import { planSelection, type PlanContext } from './plan-read';

/** A call answering one JSON value, or nothing (204) for a void function. */
export interface ValueCallPlan {
  kind: 'value';
  statement: Statement;
  returnsVoid: boolean;
}

/** A call answering a page of rows, read like a table's. */
export interface RowsCallPlan {
  kind: 'rows';
  page: PagePlan;
  /** The content type answered: the object type only when one row of a set was asked for. */
  contentType: MediaType;
}

export type CallPlan = ValueCallPlan | RowsCallPlan;

/**
 * Picks the overload whose required arguments are all given; for POST every given key must be an argument, for GET
 * the other keys are filters on the result.
 */
export function chooseOverload(name: string, overloads: readonly DbFunction[], keys: ReadonlySet<string>, strict: boolean): DbFunction {
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

export function argumentNames(fn: DbFunction): ReadonlySet<string> {
  return new Set(fn.args.map((arg) => arg.name));
}

/** Function arguments travel as text; JSON-typed and composite values are sent as JSON, arrays as arrays. */
function argumentValue(value: unknown, fn: DbFunction, key: string): unknown {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const type = fn.args.find((arg) => arg.name === key)?.type ?? '';
  if (Array.isArray(value) && type.endsWith('[]')) return value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : item));
  return JSON.stringify(value);
}

/** The arguments by name: from the POST body, or from the query parameters naming arguments. */
export function callArguments(fn: DbFunction, body: JsonRecord | null, query: ParsedQuery): Map<string, unknown> {
  if (body === null) return new Map(query.args);
  return new Map(Object.entries(body).map(([key, value]) => [key, argumentValue(value, fn, key)]));
}

function valueSql(fn: DbFunction, call: string): string {
  if (fn.returnsVoid) return `select ${call}`;
  if (fn.returnsSet) return `select coalesce(json_agg(_v), '[]'::json)::text as body from ${call} _v`;
  return `select to_json(${call})::text as body`;
}

/**
 * The call of the chosen overload. A function returning rows of a table or view is read like it, with `select`,
 * filters, order, paging, embeds and the Range header (read only here, as a scalar call ignores it); one returning a
 * single row answers it as an object.
 */
export function planCall(ctx: PlanContext, fn: DbFunction, request: CallRequest, query: ParsedQuery): CallPlan {
  const params = new SqlParams();
  const args = callArguments(fn, request.body, query);
  refuseOverlongArguments(fn, args);
  const call = functionCallSql(fn, args, params);
  if (fn.rowRelation === null) return { kind: 'value', statement: { text: valueSql(fn, call), values: params.values }, returnsVoid: fn.returnsVoid };
  const root = planSelection(ctx, fn.rowRelation, query);
  const singular = request.media === 'object' || !fn.returnsSet;
  const page = planRowsRead(root, query, request.parseRange(), { source: call, params }, {
    singular,
    exactlyOne: request.media === 'object',
    counted: request.prefs.count !== null,
  });
  return { kind: 'rows', page, contentType: singular && fn.returnsSet ? 'object' : 'array' };
}
