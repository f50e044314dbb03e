-- Current definitions: views/500_teams_with_status.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Users and teams of spec 002 §2.2, §3 and §4: the Users screen's list, what deleting or deactivating a user does, the
-- soft deletion of teams and the status views of the teams and incident rules settings pages. PostgreSQL 15 syntax:
-- it also runs on PGlite.

-- The Users screen (GET /api/db/identities_summary): one row per identity whose person is not deleted, with the
-- person's name and e-mail and their roles. The data API maps the `_summary` view to the `identities` resource, so
-- only roles that may read identities (admin, editor) read it, and roles come along without the rbac read that
-- person_roles itself needs. It joins and aggregates, so PostgreSQL cannot write through it (the API answers 405).
create view identities_summary as
select i.id,
       p.name,
       coalesce(p.email, i.traits ->> 'email') as email,
       p.avatar,
       coalesce(array(select r.role from person_roles r where r.person_id = i.id order by r.role), '{}'::text[]) as roles,
       i.state,
       i.created_at,
       i.updated_at
  from identities i
  join people p on p.id = i.id
 where p.deleted_at is null;

-- Deleting a user (DELETE /api/db/identities?id=eq.{id}) removes the identity row itself, so its sessions, credentials
-- and flows go with it through their cascades and the e-mail can be invited again, while the person stays, soft
-- deleted, because incidents, comments and runs still name them. Team memberships go too: a team lists people who
-- can act. Named after the last-admin guard (identities_guard_last_admin) so that it runs after it: triggers of one
-- event fire in name order.
create or replace function retire_person_of_identity() returns trigger language plpgsql as $$
begin
  update people set deleted_at = now() where id = old.id and deleted_at is null;
  delete from team_members where person_id = old.id;
  return old;
end;
$$;

create trigger identities_retire_person
  before delete on identities
  for each row execute function retire_person_of_identity();

-- Deactivating a user ends their sessions in the same statement, so a cookie that worked a moment ago is refused on
-- its next request in every server process, not only once the session expires. Soft-deleting the person (an admin's
-- PATCH of people.deleted_at) does the same. Sign-in already refuses inactive identities and deleted people.
create or replace function end_sessions_of_identity() returns trigger language plpgsql as $$
begin
  update sessions set active = false, updated_at = now() where identity_id = new.id and active;
  return new;
end;
$$;

create trigger identities_end_sessions
  after update of state on identities
  for each row when (old.state = 'active' and new.state <> 'active')
  execute function end_sessions_of_identity();

create trigger people_end_sessions
  after update of deleted_at on people
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function end_sessions_of_identity();

-- Teams are soft deleted (spec 002 §4): a DELETE, through the data API or any other path, marks deleted_at and keeps
-- the row, since incidents, notifications and components still point at it. Returning null skips the delete, so the
-- caller sees no row removed.
create or replace function soft_delete_team() returns trigger language plpgsql as $$
begin
  update teams set deleted_at = now() where id = old.id and deleted_at is null;
  return null;
end;
$$;

create trigger teams_soft_delete
  before delete on teams
  for each row execute function soft_delete_team();

-- The teams settings list shows live teams only.
create or replace view teams_with_status as
select t.id, t.name, t.icon, t.spec, t.source, t.created_by, t.created_at, t.updated_at, t.deleted_at,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = t.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from teams t
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = t.id order by j.created_at desc limit 1
  ) job on true
 where t.deleted_at is null;

-- The incident rules settings list (/settings/incident_rules), with the job columns every generic settings list
-- shows. The `incident_` prefix maps it to the `incident` resource, as the table.
create view incident_rules_with_status as
select r.id, r.name, r.namespace, r.labels, r.spec, r.source, r.created_by, r.created_at, r.updated_at, r.deleted_at,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = r.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from incident_rules r
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = r.id order by j.created_at desc limit 1
  ) job on true
 where r.deleted_at is null;
