import type pg from 'pg';
import { histogramPercentile } from './latency';
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

export interface CheckSummary {
  id: string;
  name: string;
  canary_id: string;
  canary_name: string;
  namespace: string | null;
  agent_id: string | null;
  agent_name: string | null;
  type: string;
  icon: string | null;
  endpoint: string | null;
  description: string | null;
  owner: string | null;
  labels: Record<string, string>;
  status: 'healthy' | 'unhealthy' | null;
  severity: string | null;
  uptime: { passed: number; failed: number };
  latency: { p95: number | null; p97: number | null; p99: number | null };
  last_runtime: string | null;
  next_runtime: string | null;
  last_transition_time: string | null;
  created_at: string;
  deleted_at: string | null;
}

interface SummaryRow extends Omit<CheckSummary, 'uptime' | 'latency'> {
  passed: number | null;
  failed: number | null;
  duration_max: number | null;
  histogram: number[] | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
}

const SLOTS = 13;
const HISTOGRAM_SUMS = `array[${Array.from({ length: SLOTS }, (_, i) => `coalesce(sum(r.duration_histogram[${i + 1}]), 0)`).join(', ')}]::integer[]`;

/** Per-check aggregates over the range, one variant per source table; only constant SQL is chosen here. */
const AGGREGATES: Record<RangeSource, string> = {
  raw: `select s.check_id, (count(*) filter (where s.status))::integer as passed, (count(*) filter (where not s.status))::integer as failed,
               max(s.duration) as duration_max, null::integer[] as histogram,
               percentile_disc(0.95) within group (order by s.duration) as p95,
               percentile_disc(0.97) within group (order by s.duration) as p97,
               percentile_disc(0.99) within group (order by s.duration) as p99
          from check_statuses s
         where s.time >= $1 and s.check_id in (select id from filtered)
         group by s.check_id`,
  '1h': `select r.check_id, sum(r.passed)::integer as passed, sum(r.failed)::integer as failed, max(r.duration_max) as duration_max,
               ${HISTOGRAM_SUMS} as histogram, null::integer as p95, null::integer as p97, null::integer as p99
          from check_statuses_1h r
         where r.bucket >= date_trunc('hour', $1::timestamptz, 'UTC') and r.check_id in (select id from filtered)
         group by r.check_id`,
  '1d': `select r.check_id, sum(r.passed)::integer as passed, sum(r.failed)::integer as failed, max(r.duration_max) as duration_max,
               ${HISTOGRAM_SUMS} as histogram, null::integer as p95, null::integer as p97, null::integer as p99
          from check_statuses_1d r
         where r.bucket >= date_trunc('day', $1::timestamptz, 'UTC') and r.check_id in (select id from filtered)
         group by r.check_id`,
};

/**
 * Every check that passes the filters with its uptime and latency over [since, now], read from the rollups for
 * ranges of an hour or more (never the raw history), with one scan of the rollup rows in the range.
 */
export async function loadCheckSummaries(
  pool: pg.Pool,
  bounds: readonly number[],
  source: RangeSource,
  since: Date,
  filters: SummaryFilters,
): Promise<CheckSummary[]> {
  const result = await pool.query<SummaryRow>(
    `with filtered as materialized (
       select k.id from checks k join canaries c on c.id = k.canary_id
        where ($2::boolean or k.deleted_at is null)
          and ($3::uuid[] is null or k.id = any($3))
          and ($4::uuid is null or k.canary_id = $4)
          and ($5::uuid is null or k.agent_id = $5)
          and ($6::text[] is null or k.type = any($6))
          and ($7::text is null or k.name ilike $7 or k.description ilike $7 or k.endpoint ilike $7 or c.name ilike $7)
          and not exists (select 1 from jsonb_each($8::jsonb) f(key, vals)
                           where not coalesce(k.labels ->> f.key in (select jsonb_array_elements_text(f.vals)), false))
          and not exists (select 1 from jsonb_each($9::jsonb) f(key, vals)
                           where k.labels ->> f.key in (select jsonb_array_elements_text(f.vals)))
     ), agg as (${AGGREGATES[source]})
     select k.id, k.name, k.canary_id, c.name as canary_name, k.namespace, k.agent_id, a.name as agent_name, k.type, k.icon, k.endpoint,
            k.description, k.owner, k.labels, k.status, k.severity, k.last_runtime, k.next_runtime, k.last_transition_time,
            k.created_at, k.deleted_at, g.passed, g.failed, g.duration_max, g.histogram, g.p95, g.p97, g.p99
       from filtered f
       join checks k on k.id = f.id
       join canaries c on c.id = k.canary_id
       left join agents a on a.id = k.agent_id
       left join agg g on g.check_id = k.id
      order by c.name, k.name, k.id`,
    [
      since.toISOString(),
      filters.includeDeleted,
      filters.checkIds,
      filters.canaryId,
      filters.agentId,
      filters.types,
      filters.query === null ? null : `%${filters.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      JSON.stringify(filters.labelsInclude),
      JSON.stringify(filters.labelsExclude),
    ],
  );
  return result.rows.map((row) => {
    const { passed, failed, duration_max: durationMax, histogram, p95, p97, p99, ...check } = row;
    const latency =
      histogram === null
        ? { p95, p97, p99 }
        : {
            p95: histogramPercentile(bounds, histogram, 0.95, durationMax),
            p97: histogramPercentile(bounds, histogram, 0.97, durationMax),
            p99: histogramPercentile(bounds, histogram, 0.99, durationMax),
          };
    return { ...check, uptime: { passed: passed ?? 0, failed: failed ?? 0 }, latency };
  });
}

export interface SeriesPoint {
  time: string;
  passed: number;
  failed: number;
  duration_avg: number | null;
  duration_max: number | null;
}

/** The Health Overview series of one check: raw rows binned for short ranges, rollup buckets for long ones. */
export async function loadCheckSeries(pool: pg.Pool, checkId: string, source: RangeSource, since: Date, rangeMinutes: number): Promise<{ bucket: string; points: SeriesPoint[] }> {
  if (source === 'raw' || rangeMinutes <= 360) {
    // About 60 points, on whole minutes.
    const stepMinutes = Math.max(1, Math.ceil(rangeMinutes / 60));
    const result = await pool.query<SeriesPoint>(
      `select date_bin(make_interval(mins => $3), s.time, timestamptz '2000-01-01 00:00:00+00') as time,
              (count(*) filter (where s.status))::integer as passed, (count(*) filter (where not s.status))::integer as failed,
              round(avg(s.duration))::integer as duration_avg, max(s.duration) as duration_max
         from check_statuses s where s.check_id = $1 and s.time >= $2
        group by 1 order by 1`,
      [checkId, since.toISOString(), stepMinutes],
    );
    return { bucket: `${stepMinutes}m`, points: result.rows };
  }
  const daily = rangeMinutes > 30 * 1440;
  const result = await pool.query<SeriesPoint>(
    daily
      ? `select bucket as time, passed, failed, (duration_sum / nullif(total, 0))::integer as duration_avg, duration_max
           from check_statuses_1d where check_id = $1 and bucket >= date_trunc('day', $2::timestamptz, 'UTC') order by bucket`
      : `select bucket as time, passed, failed, (duration_sum / nullif(total, 0))::integer as duration_avg, duration_max
           from check_statuses_1h where check_id = $1 and bucket >= date_trunc('hour', $2::timestamptz, 'UTC') order by bucket`,
    [checkId, since.toISOString()],
  );
  return { bucket: daily ? '1d' : '1h', points: result.rows };
}

export interface CheckRelationships {
  configs: { id: string; name: string; type: string }[];
  components: { id: string; name: string; icon: string | null }[];
}

export async function loadRelationships(pool: pg.Pool, checkId: string): Promise<CheckRelationships> {
  const configs = await pool.query<{ id: string; name: string; type: string }>(
    `select ci.id, ci.name, ci.type from check_config_relationships r join config_items ci on ci.id = r.config_id
      where r.check_id = $1 and r.deleted_at is null order by ci.name limit 500`,
    [checkId],
  );
  const components = await pool.query<{ id: string; name: string; icon: string | null }>(
    `select co.id, co.name, co.icon from check_component_relationships r join components co on co.id = r.component_id
      where r.check_id = $1 and r.deleted_at is null order by co.name limit 500`,
    [checkId],
  );
  return { configs: configs.rows, components: components.rows };
}

export async function loadDurationBounds(pool: pg.Pool): Promise<number[]> {
  const result = await pool.query<{ bounds: number[] }>('select check_duration_bounds() as bounds');
  return result.rows[0]?.bounds ?? [];
}
