import { SqlParams } from '../platform/sql-params';
import { LIMITS } from './limits';
import type { Condition, Field, FilterNode } from './parse/filter-grammar';
import type { PlannedEmbed, PlannedOrder, ReadNode } from './plan/plan-read';
import type { Join } from './plan/relationships';

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(relation: string): string {
  return `"public".${ident(relation)}`;
}

function fieldSql(alias: string, field: Field, params: SqlParams): string {
  let sql = `${ident(alias)}.${ident(field.column)}`;
  for (const step of field.path) {
    const key = /^-?\d{1,9}$/.test(step.key) ? step.key : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  return sql;
}

const COMPARISON: Readonly<Record<string, string>> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
};

const TS_QUERY: Readonly<Record<string, string>> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

function likePattern(value: string): string {
  return value.replace(/\*/g, '%');
}

/** A PostgreSQL array literal for `ov.(a,b)`, whose items are quoted so commas and braces survive. */
function arrayLiteral(items: string[]): string {
  return `{${items.map((item) => `"${item.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

function conditionSql(alias: string, condition: Condition, params: SqlParams): string {
  const left = fieldSql(alias, condition.field, params);
  const { operator } = condition;
  let sql: string;
  if (operator === 'is') {
    sql = `${left} is ${condition.value === 'not_null' ? 'not null' : condition.value}`;
  } else if (operator === 'in') {
    sql = `${left} = any(${params.add(condition.list ?? [])})`;
  } else if (operator === 'isdistinct') {
    sql = `${left} is distinct from ${params.add(condition.value)}`;
  } else if (operator in TS_QUERY) {
    const fn = TS_QUERY[operator] ?? 'to_tsquery';
    const query =
      condition.language === null
        ? `${fn}(${params.add(condition.value)}::text)`
        : `${fn}(${params.add(condition.language)}::regconfig, ${params.add(condition.value)}::text)`;
    sql = `${left} @@ ${query}`;
  } else {
    const symbol = COMPARISON[operator] ?? '=';
    const isLike = operator === 'like' || operator === 'ilike';
    if (condition.quantifier !== null) {
      const items = (condition.list ?? []).map((item) => (isLike ? likePattern(item) : item));
      sql = `${left} ${symbol} ${condition.quantifier}(${params.add(items)})`;
    } else if (operator === 'ov' && condition.value.startsWith('(')) {
      sql = `${left} && ${params.add(arrayLiteral(parseParenList(condition.value)))}`;
    } else {
      sql = `${left} ${symbol} ${params.add(isLike ? likePattern(condition.value) : condition.value)}`;
    }
  }
  return condition.negated ? `not (${sql})` : sql;
}

function parseParenList(value: string): string[] {
  return value
    .slice(1, -1)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function filterSql(alias: string, node: FilterNode, params: SqlParams): string {
  if (node.kind === 'condition') return conditionSql(alias, node, params);
  const parts = node.children.map((child) => `(${filterSql(alias, child, params)})`);
  const joined = parts.join(node.operator === 'and' ? ' and ' : ' or ');
  return node.negated ? `not (${joined})` : joined;
}

function joinConditions(join: Join, parentAlias: string, childAlias: string): { where: string[] } {
  if (join.junction === null) {
    return { where: join.pairs.map(([parent, child]) => `${ident(childAlias)}.${ident(child)} = ${ident(parentAlias)}.${ident(parent)}`) };
  }
  const j = `${childAlias}_j`;
  const { table, parentPairs, childPairs } = join.junction;
  const on = [
    ...childPairs.map(([child, junction]) => `${ident(j)}.${ident(junction)} = ${ident(childAlias)}.${ident(child)}`),
    ...parentPairs.map(([parent, junction]) => `${ident(j)}.${ident(junction)} = ${ident(parentAlias)}.${ident(parent)}`),
  ];
  return { where: [`exists (select 1 from ${qualified(table)} ${ident(j)} where ${on.join(' and ')})`] };
}

/** Every condition that restricts a node's rows: its filters, `!inner` embeds, and embed existence filters. */
export function whereParts(node: ReadNode, params: SqlParams): string[] {
  const parts = node.filters.map((filter) => `(${filterSql(node.alias, filter, params)})`);
  for (const item of node.items) {
    if (item.kind === 'embed' && item.inner) parts.push(existsSql(node, item, params));
  }
  for (const existence of node.existence) {
    const sql = existsSql(node, existence.embed, params);
    parts.push(existence.exists ? sql : `not ${sql}`);
  }
  return parts;
}

function existsSql(parent: ReadNode, embed: PlannedEmbed, params: SqlParams): string {
  const child = embed.node;
  const join = joinConditions(embed.join, parent.alias, child.alias);
  const where = [...join.where, ...whereParts(child, params)];
  return `exists (select 1 from ${child.source} ${ident(child.alias)} where ${where.join(' and ')})`;
}

function orderSql(node: ReadNode, order: PlannedOrder[], params: SqlParams): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    let expression: string;
    if (term.embed === null) expression = fieldSql(node.alias, term.field, params);
    else {
      const child = term.embed.node;
      const join = joinConditions(term.embed.join, node.alias, child.alias);
      expression = `(select ${fieldSql(child.alias, term.field, params)} from ${child.source} ${ident(child.alias)} where ${join.where.join(' and ')} limit 1)`;
    }
    const direction = term.descending ? ' desc' : ' asc';
    const nulls = term.nulls === null ? '' : ` nulls ${term.nulls}`;
    return `${expression}${direction}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

/** The output columns of a node: plain columns with paths and casts, and one JSON value per embed. */
export function selectListSql(node: ReadNode, params: SqlParams): string {
  const columns: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'column') {
      let expression = fieldSql(node.alias, { column: item.column, path: item.path }, params);
      if (item.cast !== null) expression = `(${expression})::${item.cast}`;
      columns.push(`${expression} as ${ident(item.outputName)}`);
    } else if (item.outputName !== null) {
      columns.push(`${embedSql(node, item, params)} as ${ident(item.outputName)}`);
    }
  }
  return columns.join(', ');
}

function embedSql(parent: ReadNode, embed: PlannedEmbed, params: SqlParams): string {
  const child = embed.node;
  const join = joinConditions(embed.join, parent.alias, child.alias);
  const inner = nodeSql(child, child.source, join.where, params);
  // A view's key is not unique the way a table's primary key is (a view may list a row once per related row), so a
  // to-one embed of a view takes the first match rather than failing with 'more than one row returned'.
  if (embed.toOne) return `(select row_to_json(_e) from (${inner}) _e${child.relation.kind === 'view' ? ' limit 1' : ''})`;
  return `coalesce((select json_agg(_e) from (${inner}) _e), '[]'::json)`;
}

function pagingSql(node: ReadNode, params: SqlParams): string {
  let sql = '';
  if (node.limit !== null) sql += ` limit ${params.add(node.limit)}::bigint`;
  if (node.offset !== null && node.offset > 0) sql += ` offset ${params.add(node.offset)}::bigint`;
  return sql;
}

/** `select <columns> from <source> <alias> where … order by … limit … offset …` for one node. */
export function nodeSql(node: ReadNode, source: string, extraWhere: string[], params: SqlParams): string {
  const where = [...extraWhere, ...whereParts(node, params)];
  const whereSql = where.length === 0 ? '' : ` where ${where.join(' and ')}`;
  const alias = ident(node.alias);
  const paged = node.limit !== null || (node.offset !== null && node.offset > 0);
  const embeds = node.items.some((item) => item.kind === 'embed');
  if (paged && embeds) {
    // Page first, then build embeds: otherwise every skipped row would pay for its embedded subqueries too.
    const page = `select ${alias}.* from ${source} ${alias}${whereSql}${orderSql(node, node.order, params)}${pagingSql(node, params)}`;
    return `select ${selectListSql(node, params)} from (${page}) ${alias}${orderSql(node, node.order, params)}`;
  }
  const list = selectListSql(node, params);
  return `select ${list} from ${source} ${alias}${whereSql}${orderSql(node, node.order, params)}${pagingSql(node, params)}`;
}

/** One SQL statement and its bound values. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The whole response in one statement: the page as JSON text (an array, or the single object for a singular
 * request), the number of rows in the page, and the exact total when it was asked for.
 */
export function readSql(root: ReadNode, source: string, options: { singular: boolean; exactCount: boolean }, sourceParams?: SqlParams): Statement {
  const params = sourceParams ?? new SqlParams();
  const page = nodeSql(root, source, [], params);
  const body = options.singular ? `coalesce((json_agg(_r)->0)::text, 'null')` : `coalesce(json_agg(_r), '[]'::json)::text`;
  let total = 'null::bigint';
  if (options.exactCount) {
    const where = whereParts(root, params);
    total = `(select count(*) from ${source} ${ident(root.alias)}${where.length === 0 ? '' : ` where ${where.join(' and ')}`})`;
  }
  return { text: `select ${body} as body, count(*)::bigint as page_rows, ${total} as total from (${page}) _r`, values: params.values };
}

/** The filtered row set without paging. */
function countedRowsSql(root: ReadNode, source: string, params: SqlParams): string {
  const where = whereParts(root, params);
  return `select 1 from ${source} ${ident(root.alias)}${where.length === 0 ? '' : ` where ${where.join(' and ')}`}`;
}

/** The planner's estimate of the filtered rows, read from EXPLAIN. */
export function plannedCountSql(root: ReadNode, source: string): Statement {
  const params = new SqlParams();
  return { text: `explain (format json) ${countedRowsSql(root, source, params)}`, values: params.values };
}

/** An exact count that stops one row past the row cap, so counting never scans a huge table. */
export function boundedCountSql(root: ReadNode, source: string): Statement {
  const params = new SqlParams();
  const text = `select count(*)::int as n from (${countedRowsSql(root, source, params)} limit ${LIMITS.maxRows + 1}) _c`;
  return { text, values: params.values };
}
