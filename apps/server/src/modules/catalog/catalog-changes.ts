import type pg from 'pg';
import {
  isDateMath,
  parseDateMath,
  parseMatchList,
  parseTagSelector,
  type CatalogChange,
  type CatalogChangeSort,
  type CatalogChangesRequest,
  type CatalogChangesResponse,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { queryWithoutJit } from '../../db/query-without-jit';
import { SqlParams } from '../../platform/sql-params';
import { containsPattern, matchListCondition } from './match-list-condition';
import { normalizedKey, PoolCaches, writeVersion, type CachedAnswer } from '../../platform/answer-cache';

const SORT_EXPRESSIONS: Record<CatalogChangeSort, string> = {
  created_at: 'ch.created_at',
  first_observed: 'ch.first_observed',
  count: 'ch.count',
  change_type: 'ch.change_type',
  severity: 'ch.severity',
  summary: 'ch.summary',
  source: 'ch.source',
  name: 'c.name',
  type: 'c.type',
  created_by: 'ch.created_by',
  external_created_by: 'ch.external_created_by',
};

/** Which way related_configs_recursive walks for each type_filter: downstream follows links and children. */
const WALKS = { all: 'all', upstream: 'incoming', downstream: 'outgoing' } as const;

function isSort(value: string): value is CatalogChangeSort {
  return Object.hasOwn(SORT_EXPRESSIONS, value);
}

function instant(value: string, now: Date, roundUp: boolean): Date {
  return isDateMath(value) ? parseDateMath(value, now, roundUp) : new Date(value);
}

/** The item and, when recursive, every item within `depth` steps in the asked direction; null when the item is unknown. */
async function scopeIds(pool: pg.Pool, request: CatalogChangesRequest & { id: string }): Promise<string[] | null> {
  const found = await pool.query<{ id: string }>('select id from config_items where id = $1', [request.id]);
  if (found.rows.length === 0) return null;
  if (!request.recursive) return [request.id];
  const related = await pool.query<{ id: string }>(
    `select distinct r.id
       from related_configs_recursive(config_id => $1, include_deleted_configs => $2, max_depth => $3, type_filter => $4) r`,
    [request.id, request.include_deleted_configs, request.depth, WALKS[request.type_filter]],
  );
  return [request.id, ...related.rows.map((row) => row.id).filter((id) => id !== request.id)];
}

function tagConditions(selector: string, params: SqlParams): string[] {
  const requirements = parseTagSelector(selector);
  if (requirements === null) throw errors.validation('/tags is not a tag selector');
  const equal: Record<string, string> = {};
  const conditions: string[] = [];
  for (const requirement of requirements) {
    if (requirement.op === '=') {
      // Two different values for one key can never both hold; containment of the object would keep only the last.
      if (requirement.key in equal && equal[requirement.key] !== requirement.value) conditions.push('false');
      equal[requirement.key] = requirement.value;
    } else if (requirement.op === '!=') {
      conditions.push(`(c.tags ->> ${params.add(requirement.key)}) is distinct from ${params.add(requirement.value)}`);
    } else if (requirement.op === 'in') {
      conditions.push(`(c.tags ->> ${params.add(requirement.key)}) = any(${params.add(requirement.values)}::text[])`);
    } else if (requirement.op === 'notin') {
      conditions.push(`coalesce((c.tags ->> ${params.add(requirement.key)}) <> all(${params.add(requirement.values)}::text[]), true)`);
    }
  }
  // Equalities as one containment test, which the GIN index on tags answers.
  if (Object.keys(equal).length > 0) conditions.unshift(`c.tags @> ${params.add(JSON.stringify(equal))}::jsonb`);
  return conditions;
}

interface CountRow {
  /** 1 on the rows of the severity grouping set. */
  by_severity: number;
  change_type: string | null;
  severity: string | null;
  n: number;
}

const countCaches = new PoolCaches<CountRow[]>();

/**
 * The counts of a request over the whole catalog, shared by its pages and sort orders (the grouped summary's cache, ADR
 * 0053): counting a window of 200,000 changes of live items costs a hundred milliseconds and more, and paging through
 * the list asked for it again on every page. Kept while nothing in the catalog is written and for at most a minute;
 * with `allowStale`, an out-of-date answer up to 300 s old (spec 002 §9) is served at once while one recount runs
 * behind it, so a scraper writing every second does not make every page of the list count 2,000,000 rows again. The
 * page itself is always read now. A request for one item's changes is counted each time: its scope follows
 * relationships, which do not move the catalog's write version, and it counts few rows.
 */
async function countsFor(
  pool: pg.Pool,
  request: CatalogChangesRequest,
  allowStale: boolean,
  compute: () => Promise<CountRow[]>,
): Promise<CachedAnswer<CountRow[]>> {
  if (request.id !== undefined) return { value: await compute(), computedAt: Date.now() };
  const { page: _page, page_size: _pageSize, sort_by: _sortBy, ...filter } = request;
  return countCaches.for(pool).get(normalizedKey(filter), await writeVersion(pool, 'catalog_write_version'), compute, allowStale);
}

export interface CatalogChangesOptions {
  now?: Date;
  /** The total and counts may be a kept answer up to 300 s old, recounted behind it (the route's default). */
  allowStale?: boolean;
}

/**
 * A page of config changes with their item's name, type and tags, the total before paging and counts per change type
 * and severity, and when those counts were computed. Each folded row (one per item and fingerprint) is one change
 * here, its sightings in `count`.
 */
export async function catalogChanges(
  pool: pg.Pool,
  request: CatalogChangesRequest,
  { now = new Date(), allowStale = false }: CatalogChangesOptions = {},
): Promise<CachedAnswer<CatalogChangesResponse>> {
  const from = instant(request.from, now, false);
  const to = instant(request.to, now, true);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw errors.validation('/from or /to is not a time');
  if (from > to) throw errors.validation('/from is after /to');

  const sortName = request.sort_by.replace(/^-/, '');
  if (!isSort(sortName)) throw errors.validation(`/sort_by '${request.sort_by}' is not a column the changes sort by`);
  const direction = request.sort_by.startsWith('-') ? 'desc' : 'asc';

  const params = new SqlParams();
  const where = [`ch.created_at >= ${params.add(from.toISOString())}::timestamptz`, `ch.created_at <= ${params.add(to.toISOString())}::timestamptz`];
  if (request.id !== undefined) {
    const ids = await scopeIds(pool, { ...request, id: request.id });
    if (ids === null) throw errors.notFound('Config item');
    where.push(`ch.config_id = any(${params.add(ids)}::uuid[])`);
  }
  if (!request.include_deleted_configs) where.push('c.deleted_at is null');
  const lists: Array<[string, string | undefined]> = [
    ['ch.change_type', request.change_type],
    ['ch.severity', request.severity],
    ['c.type', request.config_type],
    ['ch.source', request.source],
    ['ch.external_created_by', request.external_created_by],
  ];
  for (const [expression, text] of lists) {
    const condition = text === undefined ? null : matchListCondition(expression, parseMatchList(text), params);
    if (condition !== null) where.push(condition);
  }
  if (request.created_by !== undefined) where.push(`ch.created_by = ${params.add(request.created_by)}::uuid`);
  if (request.summary !== undefined && request.summary.trim() !== '') where.push(`ch.summary ilike ${params.add(containsPattern(request.summary.trim()))}`);
  if (request.tags !== undefined) where.push(...tagConditions(request.tags, params));

  const fromClause = `from config_changes ch join config_items c on c.id = ch.config_id where ${where.join(' and ')}`;
  const filterValues = [...params.values];
  const limit = params.add(request.page_size);
  const offset = params.add((request.page - 1) * request.page_size);
  const [page, counts] = await Promise.all([
    queryWithoutJit<CatalogChange>(
      pool,
      `select ch.id, ch.config_id, c.name, c.type, c.config_class, c.tags, c.deleted_at as config_deleted_at, ch.change_type,
              ch.severity, ch.summary, ch.source, ch.count, ch.first_observed, ch.created_at, ch.created_by, ch.external_created_by
         ${fromClause}
        order by ${SORT_EXPRESSIONS[sortName]} ${direction} nulls last, ch.id ${direction}
        limit ${limit} offset ${offset}`,
      params.values,
      { readOnly: true },
    ),
    countsFor(pool, request, allowStale, () =>
      queryWithoutJit<CountRow>(
        pool,
        `select grouping(ch.change_type) as by_severity, ch.change_type, ch.severity, count(*)::integer as n ${fromClause}
          group by grouping sets ((ch.change_type), (ch.severity))`,
        filterValues,
        { readOnly: true },
      ),
    ),
  ]);

  const changeTypes: Record<string, number> = {};
  const severities: Record<string, number> = {};
  let total = 0;
  for (const row of counts.value) {
    if (row.by_severity === 0) {
      changeTypes[row.change_type ?? 'none'] = row.n;
      total += row.n;
    } else {
      const key = row.severity ?? 'none';
      severities[key] = (severities[key] ?? 0) + row.n;
    }
  }
  return {
    value: { changes: page, total, summary: { change_types: changeTypes, severities }, page: request.page, page_size: request.page_size },
    computedAt: counts.computedAt,
  };
}
