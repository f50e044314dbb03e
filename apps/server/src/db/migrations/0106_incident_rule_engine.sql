-- Incident rules that act, and alert ingestion (issue #19 items 1 and 2). Alerts arrive through
-- POST /api/alerts/alertmanager and /api/alerts/webhook; the `incident-rules` event-queue consumer matches checks,
-- components and alerts against incident_rules and opens or extends incidents. PostgreSQL 15 syntax: it also runs
-- on PGlite.

-- One row per alert fingerprint: a repeat with the same status only bumps last_received_at and count.
create table alerts (
  id uuid primary key default gen_random_uuid(),
  fingerprint text not null,
  source text not null check (source in ('alertmanager', 'webhook')),
  name text not null,
  status text not null check (status in ('firing', 'resolved')),
  severity text,
  labels jsonb not null default '{}'::jsonb,
  annotations jsonb not null default '{}'::jsonb,
  starts_at timestamptz,
  ends_at timestamptz,
  generator_url text,
  first_received_at timestamptz not null default now(),
  last_received_at timestamptz not null default now(),
  -- When the status last changed (a firing alert that resolves, or fires again).
  status_changed_at timestamptz not null default now(),
  count integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint alerts_fingerprint_key unique (fingerprint)
);
create index alerts_last_received_idx on alerts (last_received_at desc);
create index alerts_status_idx on alerts (status, last_received_at desc);
create index alerts_labels_idx on alerts using gin (labels jsonb_path_ops);
create trigger alerts_updated_at before update on alerts for each row execute function set_updated_at();

-- An alert is evidence like a check or a component: type 'alert' pointing at its row.
alter table evidences drop constraint evidences_type_check;
alter table evidences add constraint evidences_type_check check (type in (
  'log', 'config', 'topology', 'check', 'config_analysis', 'config_change', 'comment', 'alert'));
alter table evidences add column alert_id uuid references alerts (id) on delete set null;
create index evidences_alert_idx on evidences (alert_id) where alert_id is not null;

-- The changelog says when a rule matched (opened the incident or added a source to it) and when every source of the
-- incident recovered.
alter table incident_histories drop constraint incident_histories_type_check;
alter table incident_histories add constraint incident_histories_type_check check (type in (
  'incident.created', 'incident.status_updated', 'incident_status.updated', 'responder.created',
  'responder.commented', 'evidence.created', 'evidence.done_definition_added', 'hypothesis.created',
  'hypothesis.status_updated', 'incident.rule_matched', 'incident.sources_recovered'));

-- One group per rule and group key: the incident the group's matches go to. While closed_at is null the group is
-- open; the partial unique index lets only one open group exist per (rule, key), so two workers matching the same
-- key at once cannot both open an incident: the second insert fails and that worker joins the first one's group.
create table incident_rule_groups (
  id uuid primary key default gen_random_uuid(),
  rule_id uuid not null references incident_rules (id) on delete cascade,
  group_key text not null,
  incident_id uuid not null references incidents (id) on delete cascade,
  hypothesis_id uuid references hypotheses (id) on delete set null,
  first_matched_at timestamptz not null default now(),
  last_matched_at timestamptz not null default now(),
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index incident_rule_groups_open_key on incident_rule_groups (rule_id, group_key) where closed_at is null;
create index incident_rule_groups_incident_idx on incident_rule_groups (incident_id);
create trigger incident_rule_groups_updated_at before update on incident_rule_groups for each row execute function set_updated_at();

-- The sources a group's incident holds as evidence, and whether each has recovered: the incident resolves itself when
-- every one of them has (unless the rule says autoResolve: false).
create table incident_rule_sources (
  group_id uuid not null references incident_rule_groups (id) on delete cascade,
  source_type text not null check (source_type in ('check', 'component', 'alert')),
  source_id uuid not null,
  evidence_id uuid references evidences (id) on delete set null,
  recovered boolean not null default false,
  matched_at timestamptz not null default now(),
  recovered_at timestamptz,
  constraint incident_rule_sources_pkey primary key (group_id, source_type, source_id)
);
create index incident_rule_sources_source_idx on incident_rule_sources (source_type, source_id);

-- The `incident-rules` consumer subscribes to check.failed, check.passed, component.unhealthy, component.healthy,
-- alert.firing and alert.resolved when a worker starts it (ADR 0055), not here: a database no worker serves writes none
-- of these rows, and suites that count the check events of a database without workers see only their own consumers.
