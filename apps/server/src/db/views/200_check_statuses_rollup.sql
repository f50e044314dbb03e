-- check_statuses_rollup: folds inserted check results into the hourly and daily rollups (trigger of 0005).
-- History: 0005 0021
-- Rollups follow inserts only: pruning old raw rows must not erase history the rollups keep. Statement-level with a
-- transition table, so a bulk insert folds into one upsert per (check, bucket) instead of one per row. A session
-- loading history in bulk may set opsdeck.skip_check_rollups to 'on' (transaction-local) and then compute the buckets
-- of what it loaded in one grouped pass: per-statement upserts of a few million rows cost far more than one
-- INSERT … SELECT … GROUP BY.
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
