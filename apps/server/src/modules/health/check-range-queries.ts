import type pg from 'pg';
import { isoTimeSql } from './iso-time-sql';

export interface SeriesPoint {
  time: string;
  passed: number;
  failed: number;
  duration_avg: number | null;
  duration_max: number | null;
}

/** Uptime, latency and the Health Overview series of one check over exactly [since, now]. */
export interface CheckRange {
  uptime: { passed: number; failed: number };
  latency: { p95: number | null; p97: number | null; p99: number | null };
  series: { bucket: string; points: SeriesPoint[] };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Ranges up to this are drawn in minute bins from the raw rows: an hourly bucket cannot be split. */
const RAW_SERIES_MAX_MINUTES = 360;
/** Ranges beyond this are drawn in daily buckets, shorter ones in hourly buckets. */
const HOURLY_SERIES_MAX_MINUTES = 30 * 1440;
/** Unix time is a whole number of UTC hours and days from the epoch, so rounding it up lands on a UTC boundary. */
const ceilTo = (ms: number, unit: number): Date => new Date(Math.ceil(ms / unit) * unit);

/** One row per raw status in [since, upTo) as a piece of chart bucket `time`, its duration in a histogram slot. */
function rawPieces(time: string, upTo: string): string {
  return `select ${time} as time, count(*)::integer as total, (count(*) filter (where s.status))::integer as passed,
                 coalesce(sum(s.duration), 0)::bigint as duration_sum, max(s.duration) as duration_max,
                 check_histogram_sum(check_histogram_slot(width_bucket(s.duration, check_duration_bounds()) + 1, 1)) as histogram
            from check_statuses s
           where s.check_id = $1 and s.time >= $2 and s.time < ${upTo}
           group by 1`;
}

function rollupPieces(table: 'check_statuses_1h' | 'check_statuses_1d', time: string, from: string, upTo: string | null): string {
  return `select ${time}, r.total, r.passed, r.duration_sum, r.duration_max, r.duration_histogram
            from ${table} r
           where r.check_id = $1 and r.bucket >= ${from}${upTo === null ? '' : ` and r.bucket < ${upTo}`}`;
}

/**
 * The pieces a range is made of, each tagged with the chart bucket it falls in: rollup buckets wholly inside the range,
 * and for the partial buckets at its start the finer rows below them (hours of the first day, raw rows of the first
 * hour). $1 check, $2 since, $3 the first hour boundary at or after since, $4 the first day boundary.
 */
const HOURLY_PIECES = `${rawPieces(`date_trunc('hour', $2::timestamptz, 'UTC')`, '$3')}
   union all ${rollupPieces('check_statuses_1h', 'r.bucket', '$3', null)}`;
const DAILY_PIECES = `${rawPieces(`date_trunc('day', $2::timestamptz, 'UTC')`, '$3')}
   union all ${rollupPieces('check_statuses_1h', `date_trunc('day', r.bucket, 'UTC')`, '$3', '$4')}
   union all ${rollupPieces('check_statuses_1d', 'r.bucket', '$4', null)}`;

function rangeSql(pieces: string): string {
  return `with pieces as (${pieces}),
    buckets as (
      select p.time, sum(p.total)::integer as total, sum(p.passed)::integer as passed, sum(p.duration_sum) as duration_sum,
             max(p.duration_max) as duration_max
        from pieces p where p.total > 0 group by p.time
    )
    select (select coalesce(json_agg(json_build_object('time', ${isoTimeSql('b.time')}, 'passed', b.passed, 'failed', b.total - b.passed,
                                                        'duration_avg', round(b.duration_sum::numeric / b.total)::integer,
                                                        'duration_max', b.duration_max) order by b.time), '[]'::json)
              from buckets b) as points,
           (select check_duration_percentiles(check_histogram_sum(p.histogram), max(p.duration_max)) from pieces p) as pct`;
}

const HOURLY_RANGE = rangeSql(HOURLY_PIECES);
const DAILY_RANGE = rangeSql(DAILY_PIECES);

/** About 60 bins on whole minutes, and the exact percentiles of the raw durations. */
const RAW_RANGE = `with bins as (
      select date_bin(make_interval(mins => $3), s.time, timestamptz '2000-01-01 00:00:00+00') as time,
             count(*)::integer as total, (count(*) filter (where s.status))::integer as passed,
             coalesce(sum(s.duration), 0)::bigint as duration_sum, max(s.duration) as duration_max
        from check_statuses s where s.check_id = $1 and s.time >= $2
       group by 1
    )
    select (select coalesce(json_agg(json_build_object('time', ${isoTimeSql('b.time')}, 'passed', b.passed, 'failed', b.total - b.passed,
                                                        'duration_avg', round(b.duration_sum::numeric / b.total)::integer,
                                                        'duration_max', b.duration_max) order by b.time), '[]'::json)
              from bins b) as points,
           (select array[percentile_disc(0.95) within group (order by s.duration), percentile_disc(0.97) within group (order by s.duration),
                         percentile_disc(0.99) within group (order by s.duration)]
              from check_statuses s where s.check_id = $1 and s.time >= $2) as pct`;

/**
 * Uptime, latency and the Health Overview series of a check over exactly [since, now], from one statement so they
 * describe the same rows: the uptime is the sum of the series' buckets. Short ranges bin raw rows; longer ones read
 * the rollups, with finer rows only for the partial bucket at the range's start, so a range neither reaches back to
 * the start of that bucket nor scans raw rows beyond its first hour.
 */
export async function loadCheckRange(pool: pg.Pool, checkId: string, since: Date, rangeMinutes: number): Promise<CheckRange> {
  const start = since.toISOString();
  const hourEdge = ceilTo(since.getTime(), HOUR_MS).toISOString();
  const daily = rangeMinutes > HOURLY_SERIES_MAX_MINUTES;
  const stepMinutes = Math.max(1, Math.ceil(rangeMinutes / 60));
  const [sql, values, bucket] =
    rangeMinutes <= RAW_SERIES_MAX_MINUTES
      ? [RAW_RANGE, [checkId, start, stepMinutes], `${stepMinutes}m`]
      : daily
        ? [DAILY_RANGE, [checkId, start, hourEdge, ceilTo(since.getTime(), DAY_MS).toISOString()], '1d']
        : [HOURLY_RANGE, [checkId, start, hourEdge], '1h'];
  const result = await pool.query<{ points: SeriesPoint[]; pct: Array<number | null> | null }>(sql, values);
  const points = result.rows[0]?.points ?? [];
  const pct = result.rows[0]?.pct ?? [];
  return {
    uptime: {
      passed: points.reduce((sum, point) => sum + point.passed, 0),
      failed: points.reduce((sum, point) => sum + point.failed, 0),
    },
    latency: { p95: pct[0] ?? null, p97: pct[1] ?? null, p99: pct[2] ?? null },
    series: { bucket, points },
  };
}
