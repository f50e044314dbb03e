-- Current definitions: views/200_check_statuses_rollup.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Health summary at scale (ADR 0040): per-check uptime and latency totals for the summary's time ranges, a faster
-- percentile read of a rollup histogram, and a switch that lets a bulk loader build the rollups itself.
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- p95, p97 and p99 of a histogram in one pass, with the interpolation of check_duration_percentile (0005): the
-- summary reads three quantiles of thousands of histograms, and one call instead of three per check cuts that work.
create or replace function check_duration_percentiles(histogram integer[], duration_max integer)
  returns integer[] language plpgsql immutable parallel safe as $$
declare
  bounds constant integer[] := check_duration_bounds();
  quantiles constant double precision[] := array[0.95, 0.97, 0.99];
  result integer[] := array[null, null, null]::integer[];
  total bigint := 0;
  seen bigint := 0;
  q integer := 1;
  target double precision;
  lower_ms double precision;
  upper_ms double precision;
  n integer;
begin
  for i in 1 .. coalesce(cardinality(histogram), 0) loop
    total := total + coalesce(histogram[i], 0);
  end loop;
  if total = 0 then
    return result;
  end if;
  for i in 1 .. cardinality(histogram) loop
    n := coalesce(histogram[i], 0);
    while q <= 3 and n > 0 and seen + n >= quantiles[q] * total loop
      target := quantiles[q] * total;
      lower_ms := case when i = 1 then 0 else bounds[i - 1] end;
      upper_ms := case when i <= cardinality(bounds) then bounds[i] else greatest(coalesce(duration_max, lower_ms), lower_ms) end;
      if duration_max is not null and duration_max >= lower_ms and duration_max < upper_ms then
        upper_ms := duration_max;
      end if;
      result[q] := round(lower_ms + (upper_ms - lower_ms) * (target - seen) / n);
      q := q + 1;
    end loop;
    seen := seen + n;
  end loop;
  while q <= 3 loop
    result[q] := duration_max;
    q := q + 1;
  end loop;
  return result;
end;
$$;

-- Same rollup as 0005, except that a session loading history in bulk may set opsdeck.skip_check_rollups to 'on'
-- (transaction-local) and then compute the buckets of what it loaded in one grouped pass: per-statement upserts
-- of a few million rows cost far more than one INSERT … SELECT … GROUP BY.
create or replace function check_statuses_rollup() returns trigger language plpgsql as $$
begin
  if current_setting('opsdeck.skip_check_rollups', true) = 'on' then
    return null;
  end if;
  with per_slot as (
    select check_id,
           date_trunc('hour', time, 'UTC') as bucket,
           width_bucket(duration, check_duration_bounds()) + 1 as slot,
           count(*)::integer as total,
           (count(*) filter (where status))::integer as passed,
           coalesce(sum(duration), 0)::bigint as duration_sum,
           min(duration) as duration_min,
           max(duration) as duration_max
      from inserted
     group by 1, 2, 3
  ), per_hour as (
    select check_id, bucket, sum(total)::integer as total, sum(passed)::integer as passed,
           sum(duration_sum)::bigint as duration_sum, min(duration_min) as duration_min, max(duration_max) as duration_max,
           check_histogram_sum(check_histogram_slot(slot, total)) as duration_histogram
      from per_slot
     group by 1, 2
  ), hourly as (
    insert into check_statuses_1h as r
      (check_id, bucket, total, passed, failed, duration_sum, duration_min, duration_max, duration_histogram)
    select check_id, bucket, total, passed, total - passed, duration_sum, duration_min, duration_max, duration_histogram
      from per_hour
    on conflict (check_id, bucket) do update set
      total = r.total + excluded.total,
      passed = r.passed + excluded.passed,
      failed = r.failed + excluded.failed,
      duration_sum = r.duration_sum + excluded.duration_sum,
      duration_min = least(r.duration_min, excluded.duration_min),
      duration_max = greatest(r.duration_max, excluded.duration_max),
      duration_histogram = check_histogram_add(r.duration_histogram, excluded.duration_histogram)
  )
  insert into check_statuses_1d as r
    (check_id, bucket, total, passed, failed, duration_sum, duration_min, duration_max, duration_histogram)
  select check_id, date_trunc('day', bucket, 'UTC'), sum(total), sum(passed), sum(total) - sum(passed),
         sum(duration_sum), min(duration_min), max(duration_max), check_histogram_sum(duration_histogram)
    from per_hour
   group by 1, 2
  on conflict (check_id, bucket) do update set
    total = r.total + excluded.total,
    passed = r.passed + excluded.passed,
    failed = r.failed + excluded.failed,
    duration_sum = r.duration_sum + excluded.duration_sum,
    duration_min = least(r.duration_min, excluded.duration_min),
    duration_max = greatest(r.duration_max, excluded.duration_max),
    duration_histogram = check_histogram_add(r.duration_histogram, excluded.duration_histogram);
  return null;
end;
$$;

-- Uptime and latency of every check over one summary time range (window_key: '1h', '1d', '1w', …), recomputed
-- from the rollups as a whole when older than the summary's staleness bound, so sorting all checks by uptime or
-- latency reads one small row per check instead of every bucket in the range. A check without runs in the range
-- has no row.
create table check_uptime_windows (
  window_key text not null,
  check_id uuid not null references checks (id) on delete cascade,
  passed integer not null,
  failed integer not null,
  p95 integer,
  p97 integer,
  p99 integer,
  constraint check_uptime_windows_pkey primary key (window_key, check_id)
);
create index check_uptime_windows_check_idx on check_uptime_windows (check_id);

-- When each window was last computed and which range start it used; requested_at says whether anyone still reads
-- it, so the worker keeps refreshing only the windows a dashboard is showing.
create table check_uptime_window_state (
  window_key text primary key,
  since timestamptz not null,
  refreshed_at timestamptz not null,
  requested_at timestamptz not null
);
