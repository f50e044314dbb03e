-- Agents, job history and the event queue: the background machinery every other area points at.
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- A null agent_id anywhere in the schema means "this server" (the spec's all-zero id): a real row for the local
-- server would have to be hidden from every agent list and count, and a foreign key to it buys nothing.
create table agents (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  description text,
  hostname text,
  version text,
  properties jsonb not null default '{}'::jsonb,
  -- SHA-256 of the access token; the token itself is shown once at creation and never stored.
  access_token_hash text,
  last_seen timestamptz,
  last_received timestamptz,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index agents_name_key on agents (name) where deleted_at is null;
create unique index agents_access_token_hash_key on agents (access_token_hash) where access_token_hash is not null;
create index agents_created_at_idx on agents (created_at desc);
create trigger agents_updated_at before update on agents for each row execute function set_updated_at();

create table job_history (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  resource_type text,
  resource_id uuid,
  status text not null default 'RUNNING' check (status in ('RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED')),
  success_count integer not null default 0,
  error_count integer not null default 0,
  duration_millis integer,
  hostname text,
  time_start timestamptz not null default now(),
  time_end timestamptz,
  -- {errors: [...], scrape_summary: {...}, summary: {...}}
  details jsonb not null default '{}'::jsonb,
  agent_id uuid references agents (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index job_history_created_at_idx on job_history (created_at desc);
-- Serves the name filter and the loose index scan behind job_history_names.
create index job_history_name_idx on job_history (name, created_at desc);
-- Serves the latest run of one resource (the *_with_status views) and the resource's Job History tab.
create index job_history_resource_idx on job_history (resource_id, created_at desc) where resource_id is not null;
create index job_history_resource_failed_idx on job_history (resource_id, created_at desc)
  where resource_id is not null and status = 'FAILED';
create index job_history_agent_idx on job_history (agent_id) where agent_id is not null;
create trigger job_history_updated_at before update on job_history for each row execute function set_updated_at();

-- Rows are deleted once consumed, so the table stays as small as the backlog.
create table event_queue (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  properties jsonb not null default '{}'::jsonb,
  error text,
  attempts integer not null default 0,
  last_attempt timestamptz,
  priority integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Consumers pick the next event of one name by priority then age, with FOR UPDATE SKIP LOCKED.
create index event_queue_pick_idx on event_queue (name, priority desc, created_at);
create trigger event_queue_updated_at before update on event_queue for each row execute function set_updated_at();
