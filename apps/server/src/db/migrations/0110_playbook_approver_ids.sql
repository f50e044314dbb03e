-- Playbook approvals by id (#31, hole 3). A spec names its approvers as Mission Control does, people by e-mail or id
-- and teams by name or id, but a name is only a label anyone who writes teams can copy or move: an editor once made a
-- second team called like the approver team and approved their own run. So the names are resolved once, when the spec
-- is saved, into `playbooks.approver_ids`; each run keeps, from the moment it is requested, the ids of the people who
-- may approve it in `playbook_runs.approvers`, and the approve route compares ids only. A membership added after the
-- request counts for later runs, never for this one. PostgreSQL 15 syntax: it also runs on PGlite.

-- {"people": [person id…], "teams": [team id…]}; null when the spec asks for no approval. Written by the trigger below
-- from the spec alone, so a value sent for it by any writer is replaced.
alter table playbooks add column approver_ids jsonb;

-- {"people": [person id…], "teams": [{"id": team id, "members": [person id…]}…]}: who could approve when the run was
-- requested; null for a run that waits for nobody.
alter table playbook_runs add column approvers jsonb;

-- The entries of one approvers list as text (people or teams), whatever a writer stored there.
create or replace function playbook_approver_entries(approvers jsonb, list text) returns setof text language sql immutable as $$
  select btrim(entry)
    from jsonb_array_elements_text(case when jsonb_typeof(approvers -> list) = 'array' then approvers -> list else '[]'::jsonb end) entry
   where btrim(entry) <> ''
$$;

-- The ids a spec's approval names. A person is a live person with that id or e-mail (any case); a team a live team with
-- that id or exactly that name. With `strict`, an entry that names nobody or a team name several live teams share is
-- refused (SQLSTATE ODP01, the API's 400 OD_PLAYBOOK_APPROVER); without it such an entry is left out, so it lets
-- nobody approve.
create or replace function resolve_playbook_approvers(spec jsonb, strict boolean) returns jsonb language plpgsql stable as $$
declare
  approvers jsonb;
  entry text;
  matches uuid[];
  person_ids uuid[] := '{}';
  team_ids uuid[] := '{}';
begin
  if coalesce(jsonb_typeof(spec), '') <> 'object' or coalesce(jsonb_typeof(spec -> 'approval'), '') <> 'object' then
    return null;
  end if;
  approvers := spec -> 'approval' -> 'approvers';
  for entry in select playbook_approver_entries(approvers, 'people') loop
    matches := array(select p.id from people p
                    where p.deleted_at is null and (p.id::text = lower(entry) or lower(p.email) = lower(entry)));
    if cardinality(matches) = 1 then
      person_ids := person_ids || matches;
    elsif strict then
      raise exception using
        errcode = 'ODP01',
        message = format('The playbook approval names %s, who is not a person here', entry),
        detail = 'spec.approval.approvers.people',
        hint = 'Name approvers by the e-mail or id of an existing person';
    end if;
  end loop;
  for entry in select playbook_approver_entries(approvers, 'teams') loop
    matches := array(select t.id from teams t where t.deleted_at is null and (t.id::text = lower(entry) or t.name = entry));
    if cardinality(matches) = 1 then
      team_ids := team_ids || matches;
    elsif strict and cardinality(matches) = 0 then
      raise exception using
        errcode = 'ODP01',
        message = format('The playbook approval names the team %s, which does not exist', entry),
        detail = 'spec.approval.approvers.teams',
        hint = 'Name approver teams by the name or id of an existing team';
    elsif strict then
      raise exception using
        errcode = 'ODP01',
        message = format('The playbook approval names the team %s, and %s teams have that name', entry, cardinality(matches)),
        detail = 'spec.approval.approvers.teams',
        hint = 'Name the approver team by its id, which the team page shows';
    end if;
  end loop;
  return jsonb_build_object(
    'people', to_jsonb(array(select distinct unnest(person_ids))),
    'teams', to_jsonb(array(select distinct unnest(team_ids))));
end;
$$;

-- Who may approve a run of this playbook requested now, from its resolved ids: the listed people, and for each listed
-- team its live members at this moment (none once the team is deleted, so an `all` approval then waits rather than
-- skipping it). `as_of` leaves out memberships made after it (the backfill below).
create or replace function playbook_run_approvers(playbook uuid, as_of timestamptz) returns jsonb language sql stable as $$
  select case when pb.approver_ids is null then null else jsonb_build_object(
    'people', coalesce(pb.approver_ids -> 'people', '[]'::jsonb),
    'teams', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', listed.id,
               'members', coalesce((select jsonb_agg(m.person_id order by m.person_id)
                                      from team_members m
                                      join teams t on t.id = m.team_id and t.deleted_at is null
                                      join people p on p.id = m.person_id and p.deleted_at is null
                                     where m.team_id::text = listed.id and m.created_at <= as_of), '[]'::jsonb))
             order by listed.id)
        from jsonb_array_elements_text(coalesce(pb.approver_ids -> 'teams', '[]'::jsonb)) as listed (id)), '[]'::jsonb))
  end
    from playbooks pb where pb.id = playbook
$$;

-- Existing playbooks and runs still waiting: names resolved as they stand now, leniently (a name that is unknown or
-- shared lets nobody approve rather than failing the upgrade), and only memberships older than the request counted.
-- Filling a new column is no edit, so updated_at stays.
alter table playbooks disable trigger playbooks_updated_at;
update playbooks set approver_ids = resolve_playbook_approvers(spec, false) where spec ? 'approval';
alter table playbooks enable trigger playbooks_updated_at;
alter table playbook_runs disable trigger playbook_runs_updated_at;
update playbook_runs set approvers = playbook_run_approvers(playbook_id, created_at) where status = 'waiting';
alter table playbook_runs enable trigger playbook_runs_updated_at;

-- Resolved whenever the spec is written, and only then: renaming or recreating a team later changes nothing, and a
-- write that sends approver_ids without a new spec keeps the stored ids.
create or replace function playbooks_resolve_approvers() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and new.spec is not distinct from old.spec then
    new.approver_ids := old.approver_ids;
  else
    new.approver_ids := resolve_playbook_approvers(new.spec, true);
  end if;
  return new;
end;
$$;

create trigger playbooks_resolve_approvers before insert or update on playbooks
  for each row execute function playbooks_resolve_approvers();

-- Every run that waits for approval takes its approvers when it is stored, whichever path stores it (the run route,
-- the seed); a value sent for the column is replaced.
create or replace function playbook_runs_take_approvers() returns trigger language plpgsql as $$
begin
  new.approvers := case when new.status = 'waiting' then playbook_run_approvers(new.playbook_id, now()) end;
  return new;
end;
$$;

create trigger playbook_runs_take_approvers before insert on playbook_runs
  for each row execute function playbook_runs_take_approvers();
