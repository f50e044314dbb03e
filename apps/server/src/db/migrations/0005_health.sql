-- Current definitions: views/200_check_statuses_rollup.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Health: canaries, their checks, raw check results and the hourly and daily rollups that long ranges read.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create table canaries (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  description text,
  icon text,
  labels jsonb not null default '{}'::jsonb,
  -- The canary spec (YAML in the editor) as a JSON document.
  spec jsonb not null default '{}'::jsonb,
  schedule text,
  source text not null default 'UI',
  agent_id uuid references agents (id) on delete set null,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index canaries_created_at_idx on canaries (created_at desc);
create trigger canaries_updated_at before update on canaries for each row execute function set_updated_at();

create table checks (
  id uuid primary key default gen_random_uuid(),
  canary_id uuid not null references canaries (id) on delete cascade,
  agent_id uuid references agents (id) on delete set null,
  type text not null,
  name text not null,
  namespace text,
  description text,
  icon text,
  endpoint text,
  owner text,
  labels jsonb not null default '{}'::jsonb,
  spec jsonb not null default '{}'::jsonb,
  status text check (status in ('healthy', 'unhealthy')),
  severity text,
  last_runtime timestamptz,
  next_runtime timestamptz,
  last_transition_time timestamptz,
  silenced_at timestamptz,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index checks_canary_idx on checks (canary_id);
create index checks_name_idx on checks (name);
create index checks_status_idx on checks (status) where deleted_at is null;
create index checks_agent_idx on checks (agent_id) where agent_id is not null and deleted_at is null;
create index checks_labels_idx on checks using gin (labels jsonb_path_ops);
create trigger checks_updated_at before update on checks for each row execute function set_updated_at();

-- last_transition_time moves only when the status flips, whatever the writer sends.
create or replace function checks_track_transition() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    if new.status is not null and new.last_transition_time is null then
      new.last_transition_time := coalesce(new.last_runtime, now());
    end if;
  elsif new.status is distinct from old.status then
    new.last_transition_time := coalesce(new.last_runtime, now());
  else
    new.last_transition_time := old.last_transition_time;
  end if;
  return new;
end;
$$;
create trigger checks_track_transition before insert or update on checks
  for each row execute function checks_track_transition();

-- One row per run. Immutable, so no updated_at. The primary key (check_id, time) also serves
-- "check_id = x order by time desc" by scanning backwards, so no second index is paid for on every insert.
create table check_statuses (
  check_id uuid not null references checks (id) on delete cascade,
  time timestamptz not null,
  status boolean not null,
  duration integer,
  message text,
  error text,
  details jsonb,
  created_at timestamptz not null default now(),
  constraint check_statuses_pkey primary key (check_id, time)
);

-- Latency percentiles over long ranges come from a fixed histogram per bucket rather than from raw rows: the 13
-- slots are the upper bounds below (ms, exclusive) plus one open slot for anything slower. Histograms add up
-- slot by slot, so any range's p95/p97/p99 is read from the sum of its buckets, interpolated linearly inside the slot
-- that holds the quantile (the open slot ends at the range's duration_max). The bounds are roughly logarithmic, so
-- the error stays a small fraction of the value from 10 ms to a minute.
create or replace function check_duration_bounds() returns integer[] language sql immutable parallel safe as $$
  select '{10,25,50,100,250,500,1000,2500,5000,10000,30000,60000}'::integer[]
$$;

-- A histogram with n in the given slot and zeros elsewhere (all zeros for a null slot, i.e. an unknown duration).
create or replace function check_histogram_slot(slot integer, n integer) returns integer[]
  language sql immutable parallel safe as $$
  select array(
    select case when g = slot then n else 0 end
      from generate_series(1, cardinality(check_duration_bounds()) + 1) g
     order by g)
$$;

create or replace function check_histogram_add(a integer[], b integer[]) returns integer[]
  language sql immutable strict parallel safe as $$
  select array(
    select coalesce(a[i], 0) + coalesce(b[i], 0)
      from generate_series(1, greatest(cardinality(a), cardinality(b))) i
     order by i)
$$;

create aggregate check_histogram_sum(integer[]) (sfunc = check_histogram_add, stype = integer[]);

-- The duration (ms) below which a fraction q of the runs fall, or null without runs.
create or replace function check_duration_percentile(histogram integer[], q double precision, duration_max integer)
  returns integer language plpgsql immutable parallel safe as $$
declare
  bounds integer[] := check_duration_bounds();
  total bigint;
  seen bigint := 0;
  target double precision;
  lower_ms double precision;
  upper_ms double precision;
  n integer;
begin
  select coalesce(sum(x), 0) into total from unnest(histogram) x;
  if total = 0 then
    return null;
  end if;
  target := q * total;
  for i in 1 .. cardinality(histogram) loop
    n := histogram[i];
    if n > 0 and seen + n >= target then
      lower_ms := case when i = 1 then 0 else bounds[i - 1] end;
      upper_ms := case when i <= cardinality(bounds) then bounds[i] else greatest(coalesce(duration_max, lower_ms), lower_ms) end;
      if duration_max is not null and duration_max >= lower_ms and duration_max < upper_ms then
        upper_ms := duration_max;
      end if;
      return round(lower_ms + (upper_ms - lower_ms) * (target - seen) / n);
    end if;
    seen := seen + n;
  end loop;
  return duration_max;
end;
$$;

-- Buckets are UTC hours and UTC days, whatever the session's time zone.
create table check_statuses_1h (
  check_id uuid not null references checks (id) on delete cascade,
  bucket timestamptz not null,
  total integer not null,
  passed integer not null,
  failed integer not null,
  duration_sum bigint not null default 0,
  duration_min integer,
  duration_max integer,
  duration_histogram integer[] not null,
  constraint check_statuses_1h_pkey primary key (check_id, bucket)
);

create table check_statuses_1d (
  check_id uuid not null references checks (id) on delete cascade,
  bucket timestamptz not null,
  total integer not null,
  passed integer not null,
  failed integer not null,
  duration_sum bigint not null default 0,
  duration_min integer,
  duration_max integer,
  duration_histogram integer[] not null,
  constraint check_statuses_1d_pkey primary key (check_id, bucket)
);

-- Rollups follow inserts only: pruning old raw rows must not erase history the rollups keep. Statement-level with a
-- transition table, so a bulk insert folds into one upsert per (check, bucket) instead of one per row.
create or replace function check_statuses_rollup() returns trigger language plpgsql as $$
begin
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
create trigger check_statuses_rollup after insert on check_statuses
  referencing new table as inserted for each statement execute function check_statuses_rollup();

create table check_component_relationships (
  component_id uuid not null references components (id) on delete cascade,
  check_id uuid not null references checks (id) on delete cascade,
  canary_id uuid references canaries (id) on delete cascade,
  selector_id text not null default 'manual',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint check_component_relationships_pkey primary key (component_id, check_id, selector_id)
);
create index check_component_relationships_check_idx on check_component_relationships (check_id);
create trigger check_component_relationships_updated_at before update on check_component_relationships
  for each row execute function set_updated_at();

create table check_config_relationships (
  config_id uuid not null references config_items (id) on delete cascade,
  check_id uuid not null references checks (id) on delete cascade,
  canary_id uuid references canaries (id) on delete cascade,
  selector_id text not null default 'manual',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint check_config_relationships_pkey primary key (config_id, check_id, selector_id)
);
create index check_config_relationships_check_idx on check_config_relationships (check_id);
create trigger check_config_relationships_updated_at before update on check_config_relationships
  for each row execute function set_updated_at();
