import type { SqlParams } from '../../platform/sql-params';
import { boundedCountSql, plannedCountSql, readSql, type Statement } from '../build-sql';
import { LIMITS } from '../limits';
import type { ReadRequest } from '../parse/parse-request';
import type { RangeRequest } from '../parse/headers';
import type { ParsedQuery } from '../parse/query-string';
import type { Relation } from '../schema-cache';
import { planSelection, type PlanContext, type ReadNode } from './plan-read';
import { readSource } from './sealed-columns';

/** A page of rows answered by one statement (readSql: the body, the rows in the page, the exact total if asked). */
export interface PagePlan {
  statement: Statement;
  /** Counts the statement cannot carry: the planner's estimate, or an exact count bounded by the row cap. */
  count: { mode: 'planned' | 'estimated'; planned: Statement; bounded: Statement } | null;
  /** The singular media type: anything but exactly one row answers 406. */
  exactlyOne: boolean;
  /** Where the page starts, for Content-Range. */
  offset: number;
}

/** The page of the target: limit and offset from the query, else from the Range header, capped at the row limit. */
function pageRoot(root: ReadNode, query: ParsedQuery, range: RangeRequest | null): void {
  const modifiers = query.modifiers.get('');
  root.offset = modifiers?.offset ?? range?.offset ?? 0;
  const requested = modifiers?.limit ?? range?.limit ?? null;
  root.limit = Math.min(requested ?? LIMITS.maxRows, LIMITS.maxRows);
}

export function planTableRead(ctx: PlanContext, relation: Relation, request: ReadRequest): PagePlan {
  const root = planSelection(ctx, relation, request.query);
  pageRoot(root, request.query, request.range);
  const { source } = root;
  const singular = request.media === 'object';
  const { count } = request.prefs;
  return {
    statement: readSql(root, source, { singular, exactCount: count === 'exact' }),
    count: count === 'planned' || count === 'estimated' ? { mode: count, planned: plannedCountSql(root, source), bounded: boundedCountSql(root, source) } : null,
    exactlyOne: singular,
    offset: root.offset ?? 0,
  };
}

export interface RowsSource {
  /** SQL yielding the rows, e.g. a function call. */
  source: string;
  /** The parameters the source already binds; the page's own follow them. */
  params: SqlParams;
}

/**
 * A page read from rows a function returns, filtered, ordered and embedded like a table's. `singular` shapes the body
 * as one object; `exactlyOne` also refuses anything but one row. Every count preference counts exactly.
 */
export function planRowsRead(
  root: ReadNode,
  query: ParsedQuery,
  range: RangeRequest | null,
  rows: RowsSource,
  options: { singular: boolean; exactlyOne: boolean; counted: boolean },
): PagePlan {
  pageRoot(root, query, range);
  // The function's rows are redacted as the relation they are shaped like would be.
  const source = readSource(rows.source, root.relation, root.redacted);
  return {
    statement: readSql(root, source, { singular: options.singular, exactCount: options.counted }, rows.params),
    count: null,
    exactlyOne: options.exactlyOne,
    offset: root.offset ?? 0,
  };
}
