-- Incidents: incidents, hypotheses, evidence, comments, responders, the changelog written by triggers, incident rules
-- and saved queries. PostgreSQL 15 syntax: it also runs on PGlite.

create sequence incident_number_seq;

create table incidents (
  id uuid primary key default gen_random_uuid(),
  incident_id text not null default 'INC-' || nextval('incident_number_seq'),
  title text not null,
  description text,
  type text not null default 'availability' check (type in (
    'cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability')),
  -- Nullable: the spec's detail form has a fallback for an incident without one.
  severity text default 'low' check (severity in ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  status text not null default 'open' check (status in ('new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  created_by uuid references people (id),
  commander_id uuid references people (id),
  communicator_id uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint incidents_incident_id_key unique (incident_id)
);
alter sequence incident_number_seq owned by incidents.incident_id;
create index incidents_created_at_idx on incidents (created_at desc);
create index incidents_status_idx on incidents (status, created_at desc);
create index incidents_severity_idx on incidents (severity, created_at desc);
create index incidents_type_idx on incidents (type, created_at desc);
create index incidents_created_by_idx on incidents (created_by, created_at desc);
create index incidents_commander_idx on incidents (commander_id) where commander_id is not null;
create trigger incidents_updated_at before update on incidents for each row execute function set_updated_at();

create table hypotheses (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  -- root leads to factor, factor to solution.
  parent_id uuid references hypotheses (id) on delete cascade,
  title text,
  type text not null default 'root' check (type in ('root', 'factor', 'solution')),
  -- Nullable: the spec's status picker has a fallback for a hypothesis without one.
  status text default 'possible' check (status in ('proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven')),
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index hypotheses_incident_idx on hypotheses (incident_id, created_at);
create index hypotheses_parent_idx on hypotheses (parent_id) where parent_id is not null;
create trigger hypotheses_updated_at before update on hypotheses for each row execute function set_updated_at();

create table evidences (
  id uuid primary key default gen_random_uuid(),
  hypothesis_id uuid not null references hypotheses (id) on delete cascade,
  type text not null check (type in ('log', 'config', 'topology', 'check', 'config_analysis', 'config_change', 'comment')),
  description text,
  -- The inner payload: {comment} for a comment; lines, selected_lines, start, includeMessages, configName, id, ...
  evidence jsonb,
  properties jsonb not null default '{}'::jsonb,
  definition_of_done boolean not null default false,
  done boolean not null default false,
  -- A CEL expression deciding whether an automatic definition of done is met.
  script text,
  config_id uuid references config_items (id) on delete set null,
  config_analysis_id uuid references config_analysis (id) on delete set null,
  config_change_id uuid references config_changes (id) on delete set null,
  component_id uuid references components (id) on delete set null,
  check_id uuid references checks (id) on delete set null,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index evidences_hypothesis_idx on evidences (hypothesis_id, created_at);
create index evidences_config_idx on evidences (config_id) where config_id is not null;
create index evidences_component_idx on evidences (component_id) where component_id is not null;
create index evidences_check_idx on evidences (check_id) where check_id is not null;
create index evidences_config_analysis_idx on evidences (config_analysis_id) where config_analysis_id is not null;
create index evidences_config_change_idx on evidences (config_change_id) where config_change_id is not null;
create trigger evidences_updated_at before update on evidences for each row execute function set_updated_at();

create table responders (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  -- person: a person responds; system: a team responds through one of its responder clients (email, jira, ...).
  type text not null check (type in ('person', 'system')),
  team_id uuid references teams (id),
  person_id uuid references people (id),
  -- {responderType, ...the fields of that type}
  properties jsonb not null default '{}'::jsonb,
  external_id text,
  acknowledge_time timestamptz,
  signoff_time timestamptz,
  close_time timestamptz,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint responders_target check (
    (type = 'person' and person_id is not null) or (type = 'system' and team_id is not null))
);
create index responders_incident_idx on responders (incident_id) where deleted_at is null;
create index responders_person_idx on responders (person_id) where person_id is not null;
create index responders_team_idx on responders (team_id) where team_id is not null;
create trigger responders_updated_at before update on responders for each row execute function set_updated_at();

create table comments (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  hypothesis_id uuid references hypotheses (id) on delete cascade,
  responder_id uuid references responders (id) on delete set null,
  -- May hold mentions written as @[display name](person id).
  comment text not null,
  created_by uuid references people (id),
  -- The author's name in an external system, for comments synced back from a responder client.
  external_created_by text,
  external_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index comments_incident_idx on comments (incident_id, created_at);
create index comments_hypothesis_idx on comments (hypothesis_id) where hypothesis_id is not null;
create trigger comments_updated_at before update on comments for each row execute function set_updated_at();

create table incident_histories (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references incidents (id) on delete cascade,
  -- The triggers write incident.status_updated for a status change; incident_status.updated is the older name of the
  -- same event in the system the spec describes, accepted so that imported history keeps its rows, and readers treat
  -- the two alike.
  type text not null check (type in (
    'incident.created', 'incident.status_updated', 'incident_status.updated', 'responder.created',
    'responder.commented', 'evidence.created', 'evidence.done_definition_added', 'hypothesis.created',
    'hypothesis.status_updated')),
  description text,
  created_by uuid references people (id) on delete set null,
  responder_id uuid references responders (id) on delete set null,
  evidence_id uuid references evidences (id) on delete set null,
  hypothesis_id uuid references hypotheses (id) on delete set null,
  comment_id uuid references comments (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index incident_histories_incident_idx on incident_histories (incident_id, created_at desc);
create index incident_histories_responder_idx on incident_histories (responder_id) where responder_id is not null;
create index incident_histories_evidence_idx on incident_histories (evidence_id) where evidence_id is not null;
create index incident_histories_hypothesis_idx on incident_histories (hypothesis_id) where hypothesis_id is not null;
create index incident_histories_comment_idx on incident_histories (comment_id) where comment_id is not null;
create trigger incident_histories_updated_at before update on incident_histories
  for each row execute function set_updated_at();

-- Who made the change: the API sets opsdeck.person_id for its transaction (set_config(..., true)); a write without it
-- (a worker, a seed) falls back to the author recorded on the row.
create or replace function opsdeck_actor(fallback uuid) returns uuid language sql stable as $$
  select coalesce(nullif(current_setting('opsdeck.person_id', true), '')::uuid, fallback)
$$;

create or replace function incidents_changelog() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into incident_histories (incident_id, type, description, created_by)
    values (new.id, 'incident.created', new.title, opsdeck_actor(new.created_by));
  elsif new.status is distinct from old.status then
    insert into incident_histories (incident_id, type, description, created_by)
    values (new.id, 'incident.status_updated', format('Status changed from %s to %s', old.status, new.status),
            opsdeck_actor(null));
  end if;
  return null;
end;
$$;
create trigger incidents_changelog after insert or update of status on incidents
  for each row execute function incidents_changelog();

create or replace function hypotheses_changelog() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into incident_histories (incident_id, type, description, hypothesis_id, created_by)
    values (new.incident_id, 'hypothesis.created', new.title, new.id, opsdeck_actor(new.created_by));
  elsif new.status is distinct from old.status then
    insert into incident_histories (incident_id, type, description, hypothesis_id, created_by)
    values (new.incident_id, 'hypothesis.status_updated',
            format('Status changed from %s to %s', coalesce(old.status, 'none'), coalesce(new.status, 'none')),
            new.id, opsdeck_actor(null));
  end if;
  return null;
end;
$$;
create trigger hypotheses_changelog after insert or update of status on hypotheses
  for each row execute function hypotheses_changelog();

create or replace function evidences_changelog() returns trigger language plpgsql as $$
declare
  incident uuid;
begin
  select h.incident_id into incident from hypotheses h where h.id = new.hypothesis_id;
  if tg_op = 'INSERT' then
    insert into incident_histories (incident_id, type, description, evidence_id, hypothesis_id, created_by)
    values (incident, 'evidence.created', new.description, new.id, new.hypothesis_id, opsdeck_actor(new.created_by));
  end if;
  -- Manual definition of done inserts evidence already marked, so an insert can log both events.
  if new.definition_of_done and (tg_op = 'INSERT' or not old.definition_of_done) then
    insert into incident_histories (incident_id, type, description, evidence_id, hypothesis_id, created_by)
    values (incident, 'evidence.done_definition_added', new.description, new.id, new.hypothesis_id,
            opsdeck_actor(case when tg_op = 'INSERT' then new.created_by end));
  end if;
  return null;
end;
$$;
create trigger evidences_changelog after insert or update of definition_of_done on evidences
  for each row execute function evidences_changelog();

create or replace function responders_changelog() returns trigger language plpgsql as $$
begin
  insert into incident_histories (incident_id, type, responder_id, created_by)
  values (new.incident_id, 'responder.created', new.id, opsdeck_actor(new.created_by));
  return null;
end;
$$;
create trigger responders_changelog after insert on responders
  for each row execute function responders_changelog();

create or replace function comments_changelog() returns trigger language plpgsql as $$
begin
  insert into incident_histories (incident_id, type, description, comment_id, hypothesis_id, responder_id, created_by)
  values (new.incident_id, 'responder.commented', new.comment, new.id, new.hypothesis_id, new.responder_id,
          opsdeck_actor(new.created_by));
  return null;
end;
$$;
create trigger comments_changelog after insert on comments
  for each row execute function comments_changelog();

create table incident_rules (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  labels jsonb not null default '{}'::jsonb,
  spec jsonb not null default '{}'::jsonb,
  source text not null default 'UI',
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index incident_rules_created_at_idx on incident_rules (created_at desc);
create trigger incident_rules_updated_at before update on incident_rules for each row execute function set_updated_at();

-- Saved views and searches: a named query string (the filters of a list page).
create table saved_queries (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  query text not null,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index saved_queries_created_by_idx on saved_queries (created_by, name) where deleted_at is null;
create trigger saved_queries_updated_at before update on saved_queries for each row execute function set_updated_at();
