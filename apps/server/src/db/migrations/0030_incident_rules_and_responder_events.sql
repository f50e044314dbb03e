-- Incident rules the database enforces for every writer (the data API, workers, seeds): the status transition table
-- and hypothesis nesting of spec 000 §4, the required responder fields of spec 000 §3/§5, and the event that hands a
-- new responder to the worker that notifies it. PostgreSQL 15 syntax: it also runs on PGlite.

-- The same table as allowedStatusTargets() in packages/shared/src/incidents.ts; a test keeps the two equal.
create or replace function incident_status_targets(from_status text) returns text[] language sql immutable as $$
  select case from_status
    when 'new' then array['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']
    when 'open' then array['open', 'investigating', 'mitigated', 'resolved', 'closed']
    when 'investigating' then array['investigating', 'mitigated', 'resolved', 'closed']
    when 'mitigated' then array['mitigated', 'resolved', 'closed', 'open']
    when 'resolved' then array['resolved', 'closed', 'open']
    when 'closed' then array['closed', 'open']
    else array[]::text[]
  end
$$;

create or replace function incidents_check_transition() returns trigger language plpgsql as $$
begin
  if new.status is distinct from old.status and not (new.status = any (incident_status_targets(old.status))) then
    raise exception 'Incident status cannot change from % to %', old.status, new.status
      using detail = format('From %s the status can change to: %s', old.status,
                            array_to_string(incident_status_targets(old.status), ', ')),
            hint = 'See the incident status transition table';
  end if;
  return new;
end;
$$;
create trigger incidents_check_transition before update of status on incidents
  for each row execute function incidents_check_transition();

create or replace function hypotheses_check_nesting() returns trigger language plpgsql as $$
declare
  parent_type text;
  parent_incident uuid;
begin
  if new.parent_id is null then
    return new;
  end if;
  select h.type, h.incident_id into parent_type, parent_incident from hypotheses h where h.id = new.parent_id;
  if parent_incident is distinct from new.incident_id then
    raise exception 'A hypothesis and its parent must belong to the same incident';
  end if;
  if not ((parent_type = 'root' and new.type = 'factor') or (parent_type = 'factor' and new.type = 'solution')) then
    raise exception 'A % hypothesis cannot be a child of a % hypothesis', new.type, parent_type
      using hint = 'root leads to factor, factor leads to solution, and a solution has no child';
  end if;
  return new;
end;
$$;
create trigger hypotheses_check_nesting before insert or update of parent_id, type on hypotheses
  for each row execute function hypotheses_check_nesting();

-- The same lists as RESPONDER_REQUIRED_FIELDS in packages/shared/src/incidents.ts; a test keeps the two equal.
create or replace function responder_required_fields(responder_type text) returns text[] language sql immutable as $$
  select case responder_type
    when 'email' then array['to', 'subject', 'body']
    when 'jira' then array['project', 'issueType', 'priority', 'summary', 'description', 'instance']
    when 'aws_ams_services_request' then array['category', 'description', 'body']
    when 'vmware' then array['product', 'category', 'description', 'body']
    when 'oracle' then array['product', 'category', 'description', 'body']
    when 'ms_planner' then array['plan_id', 'bucket_id', 'priority', 'title', 'description', 'instance']
    when 'service_now' then array[]::text[]
    when 'ca' then array[]::text[]
    when 'redhat' then array[]::text[]
    when 'aws_support' then array[]::text[]
    else null
  end
$$;

create or replace function responders_check_properties() returns trigger language plpgsql as $$
declare
  responder_type text := new.properties ->> 'responderType';
  required text[];
  field text;
begin
  if new.type = 'person' then
    return new;
  end if;
  required := responder_required_fields(responder_type);
  if required is null then
    raise exception 'Please provide valid value'
      using detail = format('properties.responderType: %s is not a responder type', coalesce(responder_type, 'nothing'));
  end if;
  foreach field in array required loop
    if jsonb_typeof(new.properties -> field) is null
       or jsonb_typeof(new.properties -> field) in ('null', 'object', 'array')
       or btrim(new.properties ->> field) = '' then
      raise exception 'Please provide valid value' using detail = format('properties.%s is required', field);
    end if;
  end loop;
  return new;
end;
$$;
create trigger responders_check_properties before insert or update of properties, type on responders
  for each row execute function responders_check_properties();

-- A worker notifies the responder's system (sends the email, opens the Jira issue) from this event.
create or replace function responders_enqueue_created() returns trigger language plpgsql as $$
begin
  insert into event_queue (name, properties) values ('responder.created', jsonb_build_object('id', new.id));
  return null;
end;
$$;
create trigger responders_enqueue_created after insert on responders
  for each row execute function responders_enqueue_created();

-- Automatic definitions of done are re-evaluated per linked item; these serve "which evidences watch this item".
create index evidences_definition_of_done_idx on evidences (type) where definition_of_done;
