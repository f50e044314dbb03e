import type pg from 'pg';
import { TIME_RANGE_KEYS, TIME_RANGE_MINUTES, type TimeRangeKey } from '@opsdeck/shared';
import { queryWithoutJit } from '../../db/query-without-jit';
import { sourceFor } from './time-window';

/** Totals older than this are recomputed before a summary reads them: the staleness bound of ADR 0040. */
export const WINDOW_MAX_AGE_MS = 60_000;
/** Past this age a read still serves the totals but starts a refresh, so a polling dashboard rarely waits for one. */
export const WINDOW_REFRESH_AGE_MS = 30_000;
/** The worker keeps refreshing a window while some summary read it this recently. */
const WINDOW_IDLE_MS = 10 * 60_000;

const SLOTS = 13;
const HISTOGRAM_SUMS = `array[${Array.from({ length: SLOTS }, (_, i) => `coalesce(sum(r.duration_histogram[${i + 1}]), 0)`).join(', ')}]::integer[]`;

/**
 * Checks per refresh statement. On the embedded database every statement holds the one connection, so a window over
 * 10k checks is recomputed in slices that let the requests queued behind it (a page's whoami, its summary) run between.
 */
export const WINDOW_BATCH_CHECKS = 1000;

/**
 * Recomputes one window from its rollup table for the checks with lo <= check_id < hi (null: unbounded); rows that
 * did not change are not rewritten.
 */
function refreshSql(table: 'check_statuses_1h' | 'check_statuses_1d', unit: 'hour' | 'day'): string {
  return `with agg as materialized (
      select r.check_id, sum(r.passed)::integer as passed, sum(r.failed)::integer as failed,
             check_duration_percentiles(${HISTOGRAM_SUMS}, max(r.duration_max)) as pct
        from ${table} r
       where r.bucket >= date_trunc('${unit}', $2::timestamptz, 'UTC')
         and ($3::uuid is null or r.check_id >= $3::uuid) and ($4::uuid is null or r.check_id < $4::uuid)
       group by r.check_id
    ), upserted as (
      insert into check_uptime_windows as w (window_key, check_id, passed, failed, p95, p97, p99)
      select $1, a.check_id, a.passed, a.failed, a.pct[1], a.pct[2], a.pct[3] from agg a
      on conflict (window_key, check_id) do update
        set passed = excluded.passed, failed = excluded.failed, p95 = excluded.p95, p97 = excluded.p97, p99 = excluded.p99
        where (w.passed, w.failed, w.p95, w.p97, w.p99) is distinct from (excluded.passed, excluded.failed, excluded.p95, excluded.p97, excluded.p99)
      returning 1
    )
    delete from check_uptime_windows w
     where w.window_key = $1 and ($3::uuid is null or w.check_id >= $3::uuid) and ($4::uuid is null or w.check_id < $4::uuid)
       and not exists (select 1 from agg a where a.check_id = w.check_id)`;
}

/** Stamps a window once all its slices are recomputed. */
const STAMP_SQL = `insert into check_uptime_window_state as s (window_key, since, refreshed_at, requested_at)
    values ($1, $2, now(), now())
    on conflict (window_key) do update
      set since = excluded.since, refreshed_at = excluded.refreshed_at,
          requested_at = case when $3::boolean then excluded.requested_at else s.requested_at end
    returning extract(epoch from refreshed_at) * 1000 as refreshed_ms`;

/** Every $1-th check id: slice i covers [bounds[i], bounds[i + 1]), the first from the lowest id. */
const SLICE_BOUNDS_SQL = `select id from (select id, row_number() over (order by id) as n from checks) c
   where n % $1 = 1 and n > 1 order by id`;

const REFRESH_HOURLY = refreshSql('check_statuses_1h', 'hour');
const REFRESH_DAILY = refreshSql('check_statuses_1d', 'day');

/** The ranges kept in check_uptime_windows: the time-range keys the rollups answer (not the raw-row ranges below 1h). */
export function windowKeyFor(timeRange: string): TimeRangeKey | null {
  const key = TIME_RANGE_KEYS.find((candidate) => candidate === timeRange);
  return key !== undefined && sourceFor(TIME_RANGE_MINUTES[key]) !== 'raw' ? key : null;
}

/**
 * The per-range totals of the health summary. A read gets totals at most WINDOW_MAX_AGE_MS old: missing or older
 * totals are recomputed first (one refresh per window at a time in this process), totals past WINDOW_REFRESH_AGE_MS
 * are served while a refresh runs behind them. The worker refreshes the windows dashboards are reading, so reads
 * seldom pay for a refresh themselves.
 */
export class UptimeWindows {
  private readonly refreshing = new Map<TimeRangeKey, Promise<Date>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (error: unknown) => void,
    private readonly batchChecks: number = WINDOW_BATCH_CHECKS,
  ) {}

  /** Totals of the window are fresh enough to read; returns when they were computed. */
  async ensureFresh(key: TimeRangeKey): Promise<Date> {
    const state = await this.pool.query<{ refreshed_ms: string; age_ms: string; requested_ms: string }>(
      `select extract(epoch from refreshed_at) * 1000 as refreshed_ms, extract(epoch from now() - refreshed_at) * 1000 as age_ms,
              extract(epoch from now() - requested_at) * 1000 as requested_ms
         from check_uptime_window_state where window_key = $1`,
      [key],
    );
    const row = state.rows[0];
    if (row === undefined || Number(row.age_ms) > WINDOW_MAX_AGE_MS) return this.refresh(key, true);
    if (Number(row.age_ms) > WINDOW_REFRESH_AGE_MS) {
      this.refresh(key, true).catch(this.onError);
    } else if (Number(row.requested_ms) > WINDOW_REFRESH_AGE_MS) {
      this.pool.query('update check_uptime_window_state set requested_at = now() where window_key = $1', [key]).catch(this.onError);
    }
    return new Date(Number(row.refreshed_ms));
  }

  /** Recomputes the window now (joining a refresh already running in this process). */
  refresh(key: TimeRangeKey, requested: boolean): Promise<Date> {
    const running = this.refreshing.get(key);
    if (running !== undefined) return running;
    const minutes = TIME_RANGE_MINUTES[key];
    const since = new Date(Date.now() - minutes * 60_000);
    const promise = this.recompute(sourceFor(minutes) === '1h' ? REFRESH_HOURLY : REFRESH_DAILY, [key, since.toISOString(), requested]).finally(() =>
      this.refreshing.delete(key),
    );
    this.refreshing.set(key, promise);
    return promise;
  }

  private async recompute(sql: string, [key, since, requested]: [TimeRangeKey, string, boolean]): Promise<Date> {
    const bounds = (await this.pool.query<{ id: string }>(SLICE_BOUNDS_SQL, [this.batchChecks])).rows.map((row) => row.id);
    const edges: Array<string | null> = [null, ...bounds, null];
    for (let i = 0; i + 1 < edges.length; i += 1) await queryWithoutJit(this.pool, sql, [key, since, edges[i], edges[i + 1]], { readOnly: false });
    const stamped = await queryWithoutJit<{ refreshed_ms: string }>(this.pool, STAMP_SQL, [key, since, requested], { readOnly: false });
    return new Date(Number(stamped[0]?.refreshed_ms ?? Date.now()));
  }

  /** Worker pass: refreshes, one after another, the windows read lately whose totals are past the refresh age. */
  async refreshRead(): Promise<TimeRangeKey[]> {
    const due = await this.pool.query<{ window_key: string }>(
      `select window_key from check_uptime_window_state
        where requested_at > now() - make_interval(secs => $1::double precision / 1000)
          and refreshed_at < now() - make_interval(secs => $2::double precision / 1000)
        order by window_key`,
      [WINDOW_IDLE_MS, WINDOW_REFRESH_AGE_MS],
    );
    const refreshed: TimeRangeKey[] = [];
    for (const { window_key: text } of due.rows) {
      const key = windowKeyFor(text);
      if (key === null) continue;
      await this.refresh(key, false);
      refreshed.push(key);
    }
    return refreshed;
  }
}
