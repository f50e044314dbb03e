import type pg from 'pg';
import {
  CHECK_HEALTHS,
  parseGroupKey,
  parseMatchList,
  type CatalogGroupKey,
  type CatalogSummaryRequest,
  type CatalogSummaryRow,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { queryWithoutJit } from '../../db/query-without-jit';
import { normalizedKey, PoolCaches, writeVersion, type CachedAnswer } from '../../platform/answer-cache';
import { SqlParams } from '../../platform/sql-params';
import { containsPattern, matchListCondition } from './match-list-condition';

const INTERVAL_UNITS = { m: 'minutes', h: 'hours', d: 'days', w: 'weeks' } as const;
const COST_COLUMNS = { '1d': 'cost_total_1d', '7d': 'cost_total_7d', '30d': 'cost_total_30d' } as const;
const MEASURE_SORTS = ['count', 'changes', 'cost', 'created_at', 'updated_at'] as const;

/** '30d' as the interval text PostgreSQL reads, '30 days'; the schema already restricted the shape. */
function intervalText(window: string): string {
  const match = /^(\d+)([mhdw])$/.exec(window);
  const unit = match?.[2];
  if (match === null || unit === undefined || !(unit in INTERVAL_UNITS)) throw errors.validation(`/since must be a window such as '30d'`);
  return `${match[1]} ${INTERVAL_UNITS[unit as keyof typeof INTERVAL_UNITS]}`;
}

function groupExpression(key: CatalogGroupKey, params: SqlParams): string {
  switch (key.kind) {
    case 'column':
      return `c.${key.column}::text`;
    case 'tag':
      return `c.tags ->> ${params.add(key.key)}`;
    case 'label':
      return `c.labels ->> ${params.add(key.key)}`;
  }
}

interface SummaryRecord {
  keys: Array<string | null>;
  count: number;
  deleted: number;
  healthy: number;
  unhealthy: number;
  warning: number;
  unknown: number;
  changes: number;
  analysis: Record<string, number>;
  analysis_by_severity: Record<string, number>;
  cost: number;
  cost_total_1d: number;
  cost_total_7d: number;
  cost_total_30d: number;
  created_at: string;
  updated_at: string;
}

function orderClause(request: CatalogSummaryRequest, groups: string[]): string {
  const direction = request.sortOrder === 'desc' ? 'desc' : 'asc';
  const byGroup = groups.map((alias) => `${alias} asc nulls last`);
  const requested = request.sortBy ?? (request.groupBy.includes('type') ? 'type' : request.groupBy[0]);
  const groupIndex = requested === undefined ? -1 : request.groupBy.indexOf(requested);
  let primary: string;
  if (groupIndex >= 0) primary = groups[groupIndex] ?? 'count';
  // A measure is named bare, so ORDER BY reads the output column of that name.
  else if ((MEASURE_SORTS as readonly string[]).includes(requested ?? '')) primary = String(requested);
  else throw errors.validation(`/sortBy must be one of the groupBy entries or ${MEASURE_SORTS.join(', ')}`);
  return [`${primary} ${direction} nulls last`, ...byGroup].join(', ');
}

const caches = new PoolCaches<CatalogSummaryRow[]>();

/**
 * The grouped summary, reused while nothing in the catalog was written and for at most a minute, and with
 * `allowStale` served up to 5 minutes old while a fresh one is computed (ADR 0053): at 100,000 items computing it
 * takes about a second, and the page asks again on every visit and filter change.
 */
export async function catalogSummary(
  pool: pg.Pool,
  request: CatalogSummaryRequest,
  allowStale = false,
): Promise<CachedAnswer<CatalogSummaryRow[]>> {
  const version = await writeVersion(pool, 'catalog_write_version');
  return caches.for(pool).get(normalizedKey(request), version, () => computeCatalogSummary(pool, request), allowStale);
}

/**
 * One row per group of config items, every count and sum computed by the database. The group keys are expressions
 * over fixed columns or over tag and label keys passed as bound values, so nothing from the request becomes SQL text.
 */
async function computeCatalogSummary(pool: pg.Pool, request: CatalogSummaryRequest): Promise<CatalogSummaryRow[]> {
  const keys = request.groupBy.map((entry) => {
    const key = parseGroupKey(entry);
    if (key === null) throw errors.validation(`/groupBy unknown grouping '${entry}'`);
    return key;
  });
  const params = new SqlParams();
  const keyExpressions = keys.map((key) => groupExpression(key, params));

  const where: string[] = [];
  if (!request.deleted) where.push('c.deleted_at is null');
  const { configType, labels, tags, search } = request.filter;
  const conditions = [
    configType === undefined ? null : matchListCondition('c.type', parseMatchList(configType), params),
    request.health === undefined ? null : matchListCondition(`coalesce(c.health, 'unknown')`, parseMatchList(request.health), params),
    request.status === undefined ? null : matchListCondition('c.status', parseMatchList(request.status), params),
    labels === undefined || Object.keys(labels).length === 0 ? null : `c.labels @> ${params.add(JSON.stringify(labels))}::jsonb`,
    tags === undefined || Object.keys(tags).length === 0 ? null : `c.tags @> ${params.add(JSON.stringify(tags))}::jsonb`,
    search === undefined || search.trim() === '' ? null : `c.name ilike ${params.add(containsPattern(search.trim()))}`,
  ];
  for (const condition of conditions) if (condition !== null) where.push(condition);
  // A filter leaves few items, whose changes the (config_id, created_at) index finds one item at a time; without one
  // nearly every item is counted, and a single pass over the window is the cheaper plan.
  const narrowed = conditions.some((condition) => condition !== null);

  const changesSince = params.add(intervalText(request.changes.since));
  const analysisSince = params.add(intervalText(request.analysis.since));
  const costColumn = COST_COLUMNS[request.cost.since];
  const healthCounts = CHECK_HEALTHS.map((health) => `count(*) filter (where k.health = '${health}')::integer as ${health}`).join(', ');
  // Groups are keyed by the array of their values: arrays compare nulls as equal, so a missing tag is one group and
  // the joins below stay hash joins. Changes are counted per item before they meet the group keys: carrying the keys
  // of every change of the window through the join cost more than twice the count itself at 1,000,000 changes.
  const sql = `
    with k as materialized (
      select c.id, coalesce(c.health, 'unknown') as health, c.deleted_at, c.cost_total_1d, c.cost_total_7d, c.cost_total_30d,
             c.created_at, c.updated_at, array[${keyExpressions.join(', ')}]::text[] as keys
        from config_items c
       ${where.length === 0 ? '' : `where ${where.join(' and ')}`}
    ),
    grp as (
      select k.keys, count(*)::integer as count, count(*) filter (where k.deleted_at is not null)::integer as deleted, ${healthCounts},
             coalesce(sum(k.${costColumn}), 0)::float8 as cost,
             coalesce(sum(k.cost_total_1d), 0)::float8 as cost_total_1d,
             coalesce(sum(k.cost_total_7d), 0)::float8 as cost_total_7d,
             coalesce(sum(k.cost_total_30d), 0)::float8 as cost_total_30d,
             min(k.created_at) as created_at, max(k.updated_at) as updated_at
        from k
       group by k.keys
    ),
    per_item as (
      select ch.config_id, count(*) as n
        from config_changes ch
       where ch.created_at > now() - ${changesSince}::interval${narrowed ? ' and ch.config_id in (select k.id from k)' : ''}
       group by ch.config_id
    ),
    chg as (
      select k.keys, sum(per_item.n)::integer as n
        from k join per_item on per_item.config_id = k.id
       group by k.keys
    ),
    an as (
      select k.keys, a.analysis_type, coalesce(a.severity, 'none') as severity, count(*)::integer as n
        from k join config_analysis a on a.config_id = k.id
       where a.status = 'open' and a.last_observed > now() - ${analysisSince}::interval
       group by k.keys, a.analysis_type, coalesce(a.severity, 'none')
    ),
    by_type as (
      select t.keys, jsonb_object_agg(t.analysis_type, t.n) as analysis
        from (select an.keys, an.analysis_type, sum(an.n)::integer as n from an group by an.keys, an.analysis_type) t
       group by t.keys
    ),
    by_severity as (
      select s.keys, jsonb_object_agg(s.severity, s.n) as analysis_by_severity
        from (select an.keys, an.severity, sum(an.n)::integer as n from an group by an.keys, an.severity) s
       group by s.keys
    )
    select grp.keys, grp.count, grp.deleted, ${CHECK_HEALTHS.map((health) => `grp.${health}`).join(', ')},
           coalesce(chg.n, 0) as changes, coalesce(by_type.analysis, '{}'::jsonb) as analysis,
           coalesce(by_severity.analysis_by_severity, '{}'::jsonb) as analysis_by_severity,
           grp.cost, grp.cost_total_1d, grp.cost_total_7d, grp.cost_total_30d, grp.created_at, grp.updated_at
      from grp
      left join chg on chg.keys = grp.keys
      left join by_type on by_type.keys = grp.keys
      left join by_severity on by_severity.keys = grp.keys
     order by ${orderClause(request, keys.map((_, index) => `grp.keys[${index + 1}]`))}`;

  const rows = await queryWithoutJit<SummaryRecord>(pool, sql, params.values, { readOnly: true });
  return rows.map((record) => toRow(record, keys));
}

function toRow(record: SummaryRecord, keys: CatalogGroupKey[]): CatalogSummaryRow {
  const row: CatalogSummaryRow = {
    tags: {},
    labels: {},
    count: record.count,
    deleted: record.deleted,
    health: { healthy: record.healthy, unhealthy: record.unhealthy, warning: record.warning, unknown: record.unknown },
    changes: record.changes,
    analysis: record.analysis,
    analysis_by_severity: record.analysis_by_severity,
    cost: record.cost,
    cost_total_1d: record.cost_total_1d,
    cost_total_7d: record.cost_total_7d,
    cost_total_30d: record.cost_total_30d,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
  keys.forEach((key, index) => {
    const value = record.keys[index] ?? null;
    if (key.kind === 'tag') row.tags[key.key] = value;
    else if (key.kind === 'label') row.labels[key.key] = value;
    else if (key.column === 'health') row.health_group = value;
    else row[key.column] = value;
  });
  return row;
}
