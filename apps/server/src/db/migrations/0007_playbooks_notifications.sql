-- Playbooks and their runs, notifications and their send history, connections and log backends.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create table playbooks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  title text,
  icon text,
  description text,
  category text,
  -- {on, configs, components, checks, parameters, actions, category, ...}
  spec jsonb not null default '{}'::jsonb,
  source text not null default 'UI',
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index playbooks_namespace_name_key on playbooks (namespace, name) where deleted_at is null;
create index playbooks_created_at_idx on playbooks (created_at desc);
create trigger playbooks_updated_at before update on playbooks for each row execute function set_updated_at();

-- Runs and actions are state machines advanced by workers: a worker claims a row with FOR UPDATE SKIP LOCKED and
-- sets locked_by and locked_until; a row whose lease has expired is claimable again, so a crashed worker never
-- leaves a run running forever.
create table playbook_runs (
  id uuid primary key default gen_random_uuid(),
  playbook_id uuid not null references playbooks (id) on delete cascade,
  status text not null default 'pending' check (status in (
    'pending', 'scheduled', 'running', 'waiting', 'completed', 'failed', 'cancelled')),
  parameters jsonb not null default '{}'::jsonb,
  -- The resource the run targets: at most one of these is set.
  config_id uuid references config_items (id) on delete set null,
  component_id uuid references components (id) on delete set null,
  check_id uuid references checks (id) on delete set null,
  -- The run that triggered this one, when a playbook runs another.
  parent_id uuid references playbook_runs (id) on delete set null,
  agent_id uuid references agents (id) on delete set null,
  scheduled_time timestamptz not null default now(),
  start_time timestamptz,
  end_time timestamptz,
  error text,
  attempts integer not null default 0,
  locked_by text,
  locked_until timestamptz,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint playbook_runs_one_target check (num_nonnulls(config_id, component_id, check_id) <= 1)
);
create index playbook_runs_created_at_idx on playbook_runs (created_at desc);
create index playbook_runs_playbook_idx on playbook_runs (playbook_id, created_at desc);
create index playbook_runs_config_idx on playbook_runs (config_id, created_at desc) where config_id is not null;
create index playbook_runs_component_idx on playbook_runs (component_id, created_at desc) where component_id is not null;
create index playbook_runs_check_idx on playbook_runs (check_id, created_at desc) where check_id is not null;
create index playbook_runs_agent_idx on playbook_runs (agent_id) where agent_id is not null;
-- Serves the workers' pick: only unfinished runs are in it.
create index playbook_runs_pending_idx on playbook_runs (scheduled_time)
  where status in ('pending', 'scheduled', 'running', 'waiting');
create trigger playbook_runs_updated_at before update on playbook_runs for each row execute function set_updated_at();

create table playbook_run_actions (
  id uuid primary key default gen_random_uuid(),
  playbook_run_id uuid not null references playbook_runs (id) on delete cascade,
  name text not null,
  status text not null default 'pending' check (status in (
    'pending', 'scheduled', 'running', 'waiting', 'sleeping', 'completed', 'failed', 'cancelled', 'skipped')),
  scheduled_time timestamptz not null default now(),
  start_time timestamptz,
  end_time timestamptz,
  error text,
  -- {stdout, stderr, logs, ...}
  result jsonb,
  agent_id uuid references agents (id) on delete set null,
  retry_count integer not null default 0,
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index playbook_run_actions_run_idx on playbook_run_actions (playbook_run_id, scheduled_time);
create index playbook_run_actions_pending_idx on playbook_run_actions (scheduled_time)
  where status in ('pending', 'scheduled', 'running', 'waiting', 'sleeping');
create trigger playbook_run_actions_updated_at before update on playbook_run_actions
  for each row execute function set_updated_at();

create table notifications (
  id uuid primary key default gen_random_uuid(),
  name text,
  title text,
  events text[] not null check (cardinality(events) > 0),
  -- A CEL expression over the event; empty means every event.
  filter text,
  person_id uuid references people (id) on delete set null,
  team_id uuid references teams (id) on delete set null,
  -- [{connection, name, ...}]
  custom_services jsonb,
  -- Markdown.
  template text,
  properties jsonb not null default '{}'::jsonb,
  source text not null default 'UI',
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index notifications_created_at_idx on notifications (created_at desc);
create index notifications_events_idx on notifications using gin (events);
create trigger notifications_updated_at before update on notifications for each row execute function set_updated_at();

create table notification_send_history (
  id uuid primary key default gen_random_uuid(),
  notification_id uuid not null references notifications (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  source_event text,
  resource_id uuid,
  person_id uuid references people (id) on delete set null,
  body text,
  error text,
  duration_millis integer,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index notification_send_history_notification_idx on notification_send_history (notification_id, status);
create index notification_send_history_created_at_idx on notification_send_history (created_at desc);
create trigger notification_send_history_updated_at before update on notification_send_history
  for each row execute function set_updated_at();

-- The *_encrypted columns hold AES-256-GCM ciphertext (nonce, tag and ciphertext together) made with a key kept
-- outside the database. No API ever selects them: the API reports only the *_set flags.
create table connections (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  type text not null,
  url text,
  username text,
  password_encrypted bytea,
  certificate_encrypted bytea,
  -- Further secret fields of some types (restic access and secret keys, ...), as one encrypted JSON object.
  secret_properties_encrypted bytea,
  password_set boolean generated always as (password_encrypted is not null) stored,
  certificate_set boolean generated always as (certificate_encrypted is not null) stored,
  insecure_tls boolean not null default false,
  -- Non-secret per-type fields (db, domain, port, tenant, ...), all strings.
  properties jsonb not null default '{}'::jsonb,
  source text not null default 'UI',
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index connections_namespace_name_key on connections (namespace, name) where deleted_at is null;
create index connections_created_at_idx on connections (created_at desc);
create trigger connections_updated_at before update on connections for each row execute function set_updated_at();

create table logging_backends (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  labels jsonb not null default '{}'::jsonb,
  spec jsonb not null default '{}'::jsonb,
  source text not null default 'UI',
  agent_id uuid references agents (id) on delete set null,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index logging_backends_created_at_idx on logging_backends (created_at desc);
create trigger logging_backends_updated_at before update on logging_backends for each row execute function set_updated_at();
