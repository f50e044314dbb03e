import type pg from 'pg';
import type { CheckSummary } from '@opsdeck/shared';
import { queryWithoutJit } from '../../db/query-without-jit';
import { SqlParams } from '../../platform/sql-params';
import { normalizedKey, PoolCaches, writeVersion } from '../../platform/answer-cache';
import { isoTimeSql } from './iso-time-sql';
import type { RangeSource } from './time-window';

export interface SummaryFilters {
  checkIds: string[] | null;
  canaryId: string | null;
  agentId: string | null;
  types: string[] | null;
  /** Matched against name, description, endpoint and canary name. */
  query: string | null;
  /** label key → accepted values (any of them); every key must match. */
  labelsInclude: Record<string, string[]>;
  /** label key → rejected values. */
  labelsExclude: Record<string, string[]>;
  includeDeleted: boolean;
}

/** 'warning' is derived: passing now but failed at least once in the time range (see healthSql). */
export type StatusFilter = 'healthy' | 'unhealthy' | 'warning' | 'unknown';
export type SortKey = 'name' | 'canary_name' | 'status' | 'uptime' | 'latency' | 'last_transition_time' | 'last_runtime' | 'type';

export interface SummaryView {
  statuses: StatusFilter[] | null;
  hidePassing: boolean;
  groupBy: string | null;
  tabBy: string | null;
  tab: string | null;
  sortBy: SortKey | null;
  sortDesc: boolean;
  offset: number;
  /** Null returns every selected check. */
  limit: number | null;
  /**
   * With groupBy, only the checks of these groups are returned (the groups a person expanded); the groups and counts
   * still cover every selected check. Null returns the checks of every group.
   */
  groupKeys: string[] | null;
}

/**
 * Where uptime and latency come from: the per-range totals table (check_uptime_windows, bounded staleness), or
 * computed now from the raw rows or a rollup table for just the checks that need them.
 */
export type StatsSource = { kind: 'window'; windowKey: string } | { kind: 'computed'; source: RangeSource; since: Date };

const SLOTS = 13;
const HISTOGRAM_SUMS = `array[${Array.from({ length: SLOTS }, (_, i) => `coalesce(sum(r.duration_histogram[${i + 1}]), 0)`).join(', ')}]::integer[]`;

/** Uptime and latency of one range per check from a rollup table, over the rows whose check_id is `checkId`. */
function rollupStats(table: 'check_statuses_1h' | 'check_statuses_1d', unit: 'hour' | 'day', checkId: string, since: string): string {
  return `select a.passed, a.failed, a.pct[1] as p95, a.pct[2] as p97, a.pct[3] as p99
            from (select coalesce(sum(r.passed), 0)::integer as passed, coalesce(sum(r.failed), 0)::integer as failed,
                         check_duration_percentiles(${HISTOGRAM_SUMS}, max(r.duration_max)) as pct
                    from ${table} r
                   where r.check_id = ${checkId} and r.bucket >= date_trunc('${unit}', ${since}::timestamptz, 'UTC')) a`;
}

/**
 * Per-check statistics joined as `st`: one lateral probe of the primary key per check, or, from a totals table, the
 * columns base already carries (healthSql joined that table to every check for the warning state).
 */
function statsJoin(stats: StatsSource, params: SqlParams): string {
  if (stats.kind === 'window') {
    return `cross join lateral (select x.window_passed as passed, x.window_failed as failed, x.window_p95 as p95, x.window_p97 as p97, x.window_p99 as p99) st`;
  }
  const since = params.add(stats.since.toISOString(), 'timestamptz');
  switch (stats.source) {
    case 'raw':
      return `left join lateral (
          select (count(*) filter (where s.status))::integer as passed, (count(*) filter (where not s.status))::integer as failed,
                 percentile_disc(0.95) within group (order by s.duration) as p95,
                 percentile_disc(0.97) within group (order by s.duration) as p97,
                 percentile_disc(0.99) within group (order by s.duration) as p99
            from check_statuses s
           where s.check_id = x.id and s.time >= ${since}) st on true`;
    case '1h':
      return `left join lateral (${rollupStats('check_statuses_1h', 'hour', 'x.id', since)}) st on true`;
    case '1d':
      return `left join lateral (${rollupStats('check_statuses_1d', 'day', 'x.id', since)}) st on true`;
  }
}

/** A check's health with its window's row joined as `w`: a passing check that failed in the range is a warning. */
const WINDOW_STATUS_KEY = `case when k.status = 'healthy' and w.failed > 0 then 'warning' else coalesce(k.status, 'unknown') end`;

/**
 * The health of a check (spec 001 §2.2 status=…): its stored status, except that a passing check that failed at least
 * once in the time range is a warning (recovered or flapping). The failures come from the figure uptime uses: the
 * totals table's row, joined to every check anyway, or a probe that stops at the first failure, run only for passing
 * checks when the range has no totals table.
 */
function healthSql(stats: StatsSource, params: SqlParams): { join: string; columns: string } {
  if (stats.kind === 'window') {
    return {
      join: `left join check_uptime_windows w on w.window_key = ${params.add(stats.windowKey, 'text')} and w.check_id = k.id`,
      columns: `${WINDOW_STATUS_KEY} as status_key,
             w.passed as window_passed, w.failed as window_failed, w.p95 as window_p95, w.p97 as window_p97, w.p99 as window_p99`,
    };
  }
  const since = params.add(stats.since.toISOString(), 'timestamptz');
  const failedSince: Record<RangeSource, string> = {
    raw: `select 1 from check_statuses s where s.check_id = k.id and s.time >= ${since} and not s.status`,
    '1h': `select 1 from check_statuses_1h r where r.check_id = k.id and r.bucket >= date_trunc('hour', ${since}, 'UTC') and r.failed > 0`,
    '1d': `select 1 from check_statuses_1d r where r.check_id = k.id and r.bucket >= date_trunc('day', ${since}, 'UTC') and r.failed > 0`,
  };
  return {
    join: '',
    columns: `case when k.status = 'healthy' and exists (${failedSince[stats.source]}) then 'warning' else coalesce(k.status, 'unknown') end as status_key`,
  };
}

/**
 * The filters on checks as plain conditions, only those asked for: each is then cheap for the planner to estimate
 * (a generic form with every filter made optional looks expensive enough to start JIT compilation, which alone
 * costs more than the whole query). `scope` holds the filters that choose which checks the page is about, not the
 * search and label filters a person narrows it with: the label options come from the scope, so no search empties them.
 */
function filterSql(filters: SummaryFilters, params: SqlParams): { scope: string; all: string } {
  const conditions: string[] = [];
  if (!filters.includeDeleted) conditions.push('k.deleted_at is null');
  if (filters.checkIds !== null) conditions.push(`k.id = any(${params.add(filters.checkIds, 'uuid[]')})`);
  if (filters.canaryId !== null) conditions.push(`k.canary_id = ${params.add(filters.canaryId, 'uuid')}`);
  if (filters.agentId !== null) conditions.push(`k.agent_id = ${params.add(filters.agentId, 'uuid')}`);
  if (filters.types !== null) conditions.push(`k.type = any(${params.add(filters.types, 'text[]')})`);
  const scope = conditions.length === 0 ? 'true' : conditions.join('\n         and ');
  if (filters.query !== null) {
    const pattern = params.add(`%${filters.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, 'text');
    conditions.push(`(k.name ilike ${pattern} or k.description ilike ${pattern} or k.endpoint ilike ${pattern} or c.name ilike ${pattern})`);
  }
  for (const [key, values] of Object.entries(filters.labelsInclude)) {
    conditions.push(`(k.labels ->> ${params.add(key, 'text')}) = any(${params.add(values, 'text[]')})`);
  }
  for (const [key, values] of Object.entries(filters.labelsExclude)) {
    conditions.push(`not coalesce((k.labels ->> ${params.add(key, 'text')}) = any(${params.add(values, 'text[]')}), false)`);
  }
  return { scope, all: conditions.length === 0 ? 'true' : conditions.join('\n         and ') };
}

/** The Tab By value of a check: namespace ('none' when unset), agent name ('local' without one), or a label value. */
function tabKeySql(tabBy: string | null, params: SqlParams): string {
  if (tabBy === null) return 'null::text';
  if (tabBy === 'namespace') return `coalesce(nullif(k.namespace, ''), 'none')`;
  if (tabBy === 'agent') return `coalesce(a.name, 'local')`;
  return `coalesce(k.labels ->> ${params.add(tabBy, 'text')}, 'none')`;
}

/** The Group By value (spec 001 §2.2): a fixed field, or else a label key; names group by their prefix before '/'. */
function groupKeySql(groupBy: string | null, params: SqlParams): string {
  switch (groupBy) {
    case null:
      return 'null::text';
    case 'canary_name':
      return 'c.name';
    case 'name':
      return `split_part(k.name, '/', 1)`;
    case 'description':
      return `coalesce(k.description, '')`;
    case 'type':
      return 'k.type';
    default:
      return `coalesce(k.labels ->> ${params.add(groupBy, 'text')}, '')`;
  }
}

/**
 * ORDER BY of each sort: the key, then the name in the same direction, then the default order (group, name, id) so
 * that pages never overlap. Constant SQL chosen by a validated key, never built from request text.
 */
function orderBy(sortBy: SortKey | null, desc: boolean): string {
  const stable = 'x.canary_name, x.name, x.id';
  if (sortBy === null) return stable;
  const d = desc ? 'desc' : 'asc';
  const key: Record<SortKey, string> = {
    name: `x.name ${d}`,
    canary_name: `x.canary_name ${d}`,
    // Worst first ascending (spec 001: unhealthy, warning, healthy), checks that never ran after them.
    status: `case x.status_key when 'unhealthy' then 0 when 'warning' then 1 when 'healthy' then 2 else 3 end ${d}`,
    type: `x.type ${d}`,
    // A check that never ran sorts first ascending, last descending.
    last_transition_time: `x.last_transition_time ${d} nulls ${desc ? 'last' : 'first'}`,
    last_runtime: `x.last_runtime ${d} nulls ${desc ? 'last' : 'first'}`,
    // Without runs in the range a check has no uptime and sorts below 0 %.
    uptime: `coalesce(st.passed::double precision / nullif(st.passed + st.failed, 0), -1) ${d}`,
    latency: `coalesce(st.p95, -1) ${d}`,
  };
  return `${key[sortBy]}, x.name ${d}, ${stable}`;
}

/**
 * A check of the summary as a row whose columns are the keys of spec 001's Check, in its order: json_agg writes a row
 * without the blanks json_build_object puts around every key, a tenth of the bytes of a large summary.
 */
const CHECK_ROW = `lateral (
  select p.id, p.name, p.canary_id, p.canary_name, p.namespace, p.agent_id, p.agent_name, p.type, p.icon, p.endpoint,
         p.description, p.owner, p.labels, p.status, p.status_key as health, p.severity, ${isoTimeSql('p.last_runtime')} as last_runtime,
         ${isoTimeSql('p.next_runtime')} as next_runtime, ${isoTimeSql('p.last_transition_time')} as last_transition_time,
         ${isoTimeSql('p.created_at')} as created_at, ${isoTimeSql('p.deleted_at')} as deleted_at,
         (select u from (select coalesce(p.passed, 0) as passed, coalesce(p.failed, 0) as failed) u) as uptime,
         (select l from (select p.p95, p.p97, p.p99) l) as latency) v`;

function cutOf(source: string, order: string, { offset, limit }: { offset: string; limit: string }): string {
  return `(select x.* from ${source} x order by ${order} offset ${offset} limit ${limit}) x`;
}

/** The columns of spec 001's Check that the narrow rows of `base` leave out, read for the page's checks only. */
const PAGE_COLUMNS = `k.id, k.name, k.canary_id, x.canary_name, k.namespace, k.agent_id, a.name as agent_name, k.type, k.icon, k.endpoint,
       k.description, k.owner, k.labels, k.status, x.status_key, k.severity, k.last_runtime, k.next_runtime,
       k.last_transition_time, k.created_at, k.deleted_at, x.ord`;

/**
 * The page: cut from the narrow rows of the selected checks (with the statistics of every one of them only when they
 * decide the order; otherwise a top-N sort, with no position numbered for the rows past the page), then joined back to
 * the checks table for their other columns and, unless already there, their statistics.
 */
function pageSql(
  source: string,
  stats: string,
  order: string,
  statsFirst: boolean,
  everyCheck: boolean,
  bounds: () => { offset: string; limit: string },
): string {
  const wide = (rows: string) => `from ${rows} join checks k on k.id = x.id left join agents a on a.id = k.agent_id`;
  if (statsFirst) {
    const { offset, limit } = bounds();
    return `select ${PAGE_COLUMNS}, x.passed, x.failed, x.p95, x.p97, x.p99
              ${wide(`(select x.id, x.canary_name, x.status_key, row_number() over (order by ${order}) as ord, st.passed, st.failed, st.p95, st.p97, st.p99
                         from ${source} x ${stats} order by ord offset ${offset} limit ${limit}) x`)}`;
  }
  const cut = everyCheck ? `${source} x` : cutOf(source, order, bounds());
  return `select ${PAGE_COLUMNS}, st.passed, st.failed, st.p95, st.p97, st.p99
            ${wide(`(select x.*, row_number() over (order by ${order}) as ord from ${cut}) x`)}
            ${stats}`;
}

/** What one request asks of the checks, as SQL pieces bound to one statement's parameters. */
interface SummaryParts {
  health: { join: string; columns: string };
  filter: { scope: string; all: string };
  /** The tab condition on a row `t` of base (true for All). */
  inTab: string;
  /** The status filters on a row `t` of base (true when none). */
  statusMatch: string;
}

function summaryParts(stats: StatsSource, filters: SummaryFilters, view: SummaryView, params: SqlParams): SummaryParts {
  const tabbed = view.tabBy !== null && view.tab !== null && view.tab !== 'All';
  const statusConditions = [
    ...(view.statuses === null ? [] : [`t.status_key = any(${params.add(view.statuses, 'text[]')})`]),
    // Only strictly healthy checks pass: a warning failed in the range and stays in view.
    ...(view.hidePassing ? [`t.status_key <> 'healthy'`] : []),
  ];
  return {
    health: healthSql(stats, params),
    filter: filterSql(filters, params),
    inTab: tabbed ? `t.tab_key = ${params.add(view.tab, 'text')}` : 'true',
    statusMatch: statusConditions.length === 0 ? 'true' : statusConditions.join(' and '),
  };
}

/** Only what the counts, the groups and the order read: the page's own columns are read for its checks alone. */
function baseCte(parts: SummaryParts, view: SummaryView, params: SqlParams): string {
  return `base as materialized (
      select k.id, k.name, c.name as canary_name, k.type, k.last_runtime, k.last_transition_time, ${parts.health.columns},
             ${tabKeySql(view.tabBy, params)} as tab_key, ${groupKeySql(view.groupBy, params)} as group_key
        from checks k
        join canaries c on c.id = k.canary_id
        left join agents a on a.id = k.agent_id
        ${parts.health.join}
       where ${parts.filter.all}
    )`;
}

/** The checks of the tab that pass the status filters: what the page is cut from. */
function selectedCte(parts: SummaryParts): string {
  return `selected as not materialized (select t.* from base t where ${parts.inTab} and ${parts.statusMatch})`;
}

/** One pass over the checks for every count: few rows, one per tab, status and group. */
const TALLY_CTE = `tally as materialized (
      select t.tab_key, t.status_key, t.group_key, count(*)::integer as n from base t group by 1, 2, 3
    )`;

/** The summary's fields besides the checks: totals, health counts, tabs, groups and label values. */
function aggregateFields(parts: SummaryParts, view: SummaryView): string {
  const { inTab, statusMatch, filter } = parts;
  const sumOf = (condition: string) => `coalesce(sum(t.n) filter (where ${condition}), 0)`;
  return `'totalEntries', (select ${sumOf(statusMatch)} from tally t where ${inTab}),
      'counts', (select json_build_object('total', ${sumOf('true')}, 'healthy', ${sumOf(`t.status_key = 'healthy'`)},
                                          'unhealthy', ${sumOf(`t.status_key = 'unhealthy'`)}, 'warning', ${sumOf(`t.status_key = 'warning'`)},
                                          'unknown', ${sumOf(`t.status_key = 'unknown'`)})
                   from tally t where ${inTab}),
      'tabs', ${
        view.tabBy === null
          ? `'[]'::json`
          : // Every tab stays, its count what it would show: the filters of the page, the status ones included.
            `(select json_agg(json_build_object('key', x.key, 'count', x.n) order by x.o, x.key)
                 from (select 'All' as key, ${sumOf(statusMatch)} as n, 0 as o from tally t
                       union all
                       select t.tab_key, ${sumOf(statusMatch)}, 1 from tally t group by t.tab_key) x)`
      },
      'groups', ${
        view.groupBy === null
          ? `'[]'::json`
          : `(select coalesce(json_agg(json_build_object('key', g.group_key, 'count', g.n, 'healthy', g.healthy,
                                                            'unhealthy', g.unhealthy, 'warning', g.warning, 'unknown', g.unknown,
                                                            -- A warning passes now: with it a group is at worst mixed, never unhealthy.
                                                            'health', case when g.healthy = g.n then 'good' when g.healthy + g.warning = 0 then 'unhealthy' else 'mixed' end)
                                          order by g.group_key), '[]'::json)
                   from (select t.group_key, sum(t.n) as n, ${sumOf(`t.status_key = 'healthy'`)} as healthy,
                                ${sumOf(`t.status_key = 'unhealthy'`)} as unhealthy, ${sumOf(`t.status_key = 'warning'`)} as warning,
                                ${sumOf(`t.status_key = 'unknown'`)} as unknown
                           from tally t where ${inTab} and ${statusMatch} group by t.group_key) g)`
      },
      -- Checks share few label sets: each distinct set is taken apart once.
      'labels', (select coalesce(json_object_agg(l.key, l.vals order by l.key), '{}'::json)
                   from (select e.key, json_agg(distinct e.value order by e.value) as vals
                           from (select distinct k.labels from checks k where ${filter.scope}) d cross join lateral jsonb_each_text(d.labels) e
                          group by e.key) l)`;
}

function selectedSource(view: SummaryView, params: SqlParams): string {
  return view.groupKeys === null ? 'selected' : `(select t.* from selected t where t.group_key = any(${params.add(view.groupKeys, 'text[]')}))`;
}

function pageCte(stats: StatsSource, view: SummaryView, params: SqlParams): string {
  const statsFirst = view.sortBy === 'uptime' || view.sortBy === 'latency';
  return `page as (
      ${pageSql(
        selectedSource(view, params),
        statsJoin(stats, params),
        orderBy(view.sortBy, view.sortDesc),
        statsFirst,
        view.limit === null,
        // Bound only where the SQL reads them: a parameter no statement reads has no type PostgreSQL can infer.
        () => ({ offset: params.add(view.offset, 'integer'), limit: params.add(view.limit, 'integer') }),
      )}
    )`;
}

const CHECKS_JSON = `(select coalesce(json_agg(v order by p.ord), '[]'::json) from page p cross join ${CHECK_ROW})`;

/** The whole summary in one statement, its checks' statistics computed now (a range without a totals table). */
function summarySql(stats: StatsSource, filters: SummaryFilters, view: SummaryView, timeRange: Record<string, unknown>, params: SqlParams): string {
  const parts = summaryParts(stats, filters, view, params);
  return `with ${baseCte(parts, view, params)}, ${selectedCte(parts)}, ${TALLY_CTE}, ${pageCte(stats, view, params)}
    select json_build_object(
      'checks_summary', ${CHECKS_JSON},
      ${aggregateFields(parts, view)},
      'timeRange', ${params.add(JSON.stringify(timeRange), 'json')}
    )::text as body`;
}

/** The fields besides the checks as a JSON object: what the cache keeps while the checks' health is unchanged. */
function aggregatesSql(stats: StatsSource, filters: SummaryFilters, view: SummaryView, params: SqlParams): string {
  const parts = summaryParts(stats, filters, view, params);
  return `with ${baseCte(parts, view, params)}, ${TALLY_CTE}
    select json_build_object(${aggregateFields(parts, view)})::text as body`;
}

/**
 * The page's checks as a JSON array. A view whose order and filters need no check's health (no status filter, not
 * sorted by health, uptime or latency) is cut from the checks and canaries alone by a top-N sort, and only its checks
 * read their window's totals; any other reads every check's health first, as the whole summary does.
 */
function pageChecksSql(stats: StatsSource & { kind: 'window' }, filters: SummaryFilters, view: SummaryView, params: SqlParams): string {
  const healthFree = view.statuses === null && !view.hidePassing && !['status', 'uptime', 'latency'].includes(view.sortBy ?? '');
  if (!healthFree) {
    const parts = summaryParts(stats, filters, view, params);
    return `with ${baseCte(parts, view, params)}, ${selectedCte(parts)}, ${pageCte(stats, view, params)}
      select ${CHECKS_JSON}::text as body`;
  }
  const filter = filterSql(filters, params);
  const tabbed = view.tabBy !== null && view.tab !== null && view.tab !== 'All';
  const order = orderBy(view.sortBy, view.sortDesc);
  const cut = view.limit === null ? `${selectedSource(view, params)} x` : cutOf(selectedSource(view, params), order, { offset: params.add(view.offset, 'integer'), limit: params.add(view.limit, 'integer') });
  return `with selected as not materialized (
      select k.id, k.name, c.name as canary_name, k.type, k.last_runtime, k.last_transition_time,
             ${groupKeySql(view.groupBy, params)} as group_key
        from checks k
        join canaries c on c.id = k.canary_id
        left join agents a on a.id = k.agent_id
       where ${filter.all}${tabbed ? ` and ${tabKeySql(view.tabBy, params)} = ${params.add(view.tab, 'text')}` : ''}
    ), page as (
      select k.id, k.name, k.canary_id, x.canary_name, k.namespace, k.agent_id, a.name as agent_name, k.type, k.icon, k.endpoint,
             k.description, k.owner, k.labels, k.status, ${WINDOW_STATUS_KEY} as status_key, k.severity, k.last_runtime,
             k.next_runtime, k.last_transition_time, k.created_at, k.deleted_at, x.ord,
             w.passed, w.failed, w.p95, w.p97, w.p99
        from (select x.*, row_number() over (order by ${order}) as ord from ${cut}) x
        join checks k on k.id = x.id
        left join agents a on a.id = k.agent_id
        left join check_uptime_windows w on w.window_key = ${params.add(stats.windowKey, 'text')} and w.check_id = k.id
    )
    select ${CHECKS_JSON}::text as body`;
}

/** The checks' counts, tabs, groups and label values of each request, kept per database (migration 0126). */
const aggregateCaches = new PoolCaches<string>();

/** One statement's JSON text. */
async function jsonText(pool: pg.Pool, sql: string, params: SqlParams): Promise<string> {
  // The planner cannot see through the CTEs and lateral probes and overestimates them; its cost then passes the JIT
  // threshold, and compiling the plan would take longer than running it.
  const rows = await queryWithoutJit<{ body: string }>(pool, sql, params.values, { readOnly: true });
  const body = rows[0]?.body;
  if (body === undefined) throw new Error('the health summary statement returned no row');
  return body;
}

/**
 * The health summary as JSON text, built by PostgreSQL: filters, tab, counts, groups and label values from the checks
 * table; uptime and latency from the totals table for every check (its failures decide warnings), or, for a range
 * without one, computed only for the checks the page (or the sort) needs. Node passes the text through, so thousands
 * of checks cost no per-row work in JavaScript.
 *
 * For a range with a totals table the counts, tabs, groups and label values are kept between requests while the
 * health summary's version has not moved (migration 0126: a check added, removed, relabelled or changing health, a
 * warning appearing or clearing) and for at most a minute, so a dashboard polling a steady fleet of 10,000 checks
 * reads its page of 50 and not every check each time; the page is always read now. A range without one is computed
 * whole in one statement.
 */
export async function loadSummaryJson(
  pool: pg.Pool,
  stats: StatsSource,
  filters: SummaryFilters,
  view: SummaryView,
  timeRange: Record<string, unknown>,
): Promise<string> {
  if (stats.kind === 'computed') {
    const params = new SqlParams();
    return jsonText(pool, summarySql(stats, filters, view, timeRange, params), params);
  }
  const { statuses, hidePassing, groupBy, tabBy, tab } = view;
  const key = normalizedKey({ windowKey: stats.windowKey, filters, statuses, hidePassing, groupBy, tabBy, tab });
  const aggregates = await aggregateCaches.for(pool).get(key, await writeVersion(pool, 'health_summary_version'), () => {
    const params = new SqlParams();
    return jsonText(pool, aggregatesSql(stats, filters, view, params), params);
  });
  const params = new SqlParams();
  const checks = await jsonText(pool, pageChecksSql(stats, filters, view, params), params);
  // Both are JSON objects or arrays PostgreSQL wrote; the fields of the kept object go in between the checks and the range.
  return `{"checks_summary":${checks},${aggregates.value.slice(1, -1)},"timeRange":${JSON.stringify(timeRange)}}`;
}

/** One check as the summary shows it, with uptime and latency computed now over [since, now]; null when absent. */
export async function loadCheckSummary(pool: pg.Pool, checkId: string, source: RangeSource, since: Date): Promise<CheckSummary | null> {
  const body = await loadSummaryJson(
    pool,
    { kind: 'computed', source, since },
    { checkIds: [checkId], canaryId: null, agentId: null, types: null, query: null, labelsInclude: {}, labelsExclude: {}, includeDeleted: true },
    { statuses: null, hidePassing: false, groupBy: null, tabBy: null, tab: null, sortBy: null, sortDesc: false, offset: 0, limit: 1, groupKeys: null },
    {},
  );
  const parsed = JSON.parse(body) as { checks_summary?: CheckSummary[] };
  return parsed.checks_summary?.[0] ?? null;
}
