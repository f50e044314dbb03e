-- The console must never be left without someone who can administer it, whichever API or route makes the change:
-- deleting or soft-deleting the last active administrator, taking away their admin role or deactivating or deleting
-- their identity is refused with SQLSTATE ODA01, which the API answers as 409 OD_LAST_ADMIN.
--
-- An active administrator holds the admin role, is not deleted and has an active identity, i.e. can sign in and act.
-- The guard runs BEFORE each row: the row is still in place, so "was this person an active administrator" reads the
-- state before the change, and rows an earlier part of the same statement changed are already visible, so removing
-- two administrators in one statement is caught at the second. Rows removed by a cascade from people find the person
-- already gone and pass: the people row itself was checked.
create or replace function guard_last_admin() returns trigger language plpgsql as $$
declare
  person uuid;
  leaving boolean := false;
begin
  if tg_table_name = 'people' then
    person := old.id;
    if tg_op = 'DELETE' then
      leaving := true;
    else
      leaving := (old.deleted_at is null and new.deleted_at is not null) or new.id <> old.id;
    end if;
  elsif tg_table_name = 'person_roles' then
    person := old.person_id;
    if old.role = 'admin' then
      if tg_op = 'DELETE' then
        leaving := true;
      else
        leaving := new.role <> 'admin' or new.person_id <> old.person_id;
      end if;
    end if;
  elsif tg_table_name = 'identities' then
    person := old.id;
    if old.state = 'active' then
      if tg_op = 'DELETE' then
        leaving := true;
      else
        leaving := new.state <> 'active' or new.id <> old.id;
      end if;
    end if;
  end if;

  if not leaving then
    return coalesce(new, old);
  end if;
  if not exists (
    select 1
      from people p
      join person_roles r on r.person_id = p.id and r.role = 'admin'
      join identities i on i.id = p.id and i.state = 'active'
     where p.id = person and p.deleted_at is null
  ) then
    return coalesce(new, old);
  end if;
  if not exists (
    select 1
      from people p
      join person_roles r on r.person_id = p.id and r.role = 'admin'
      join identities i on i.id = p.id and i.state = 'active'
     where p.id <> person and p.deleted_at is null
  ) then
    raise exception 'The last administrator cannot be removed or disabled'
      using errcode = 'ODA01', hint = 'Give another active person the admin role first';
  end if;
  return coalesce(new, old);
end;
$$;

create trigger people_guard_last_admin
  before update or delete on people
  for each row execute function guard_last_admin();

create trigger person_roles_guard_last_admin
  before update or delete on person_roles
  for each row execute function guard_last_admin();

create trigger identities_guard_last_admin
  before update or delete on identities
  for each row execute function guard_last_admin();
