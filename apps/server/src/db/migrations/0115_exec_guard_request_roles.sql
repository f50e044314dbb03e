-- Current definitions: views/220_exec_guards.sql (applied after the numbered migrations, ADR 0064). What this file
-- defines of them is history a fresh database replays: change them there.
-- The exec guards of 0069 asked whether the writing person is an admin. A personal API token acts with the role it
-- was given (capped at its owner's), so an admin's token made for the editor role passed them: it could remove or
-- rewrite a canary holding exec checks through a filtered PATCH whose body names no exec check (the save rules see
-- the body only). The guards now also need the roles the request acts with (opsdeck.roles, set by the data API since
-- 0109) to include admin when they are known.

create or replace function exec_writer_is_admin(person text) returns boolean language sql stable as $$
  select exists (select 1 from person_roles r where r.person_id = person::uuid and r.role = 'admin')
     and (coalesce(current_setting('opsdeck.roles', true), '') = '' or console_caller_is_admin())
$$;

create or replace function canaries_exec_guard() returns trigger language plpgsql as $$
declare
  person text := nullif(current_setting('opsdeck.person_id', true), '');
  touches boolean := false;
begin
  if person is null then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op <> 'INSERT' and jsonb_typeof(old.spec) = 'object' then
    touches := old.spec ? 'exec' or coalesce(jsonb_typeof(old.spec -> 'spec') = 'object' and (old.spec -> 'spec') ? 'exec', false);
  end if;
  if not touches and tg_op <> 'INSERT' then
    touches := exists (select 1 from checks k where k.canary_id = old.id and k.deleted_at is null and lower(btrim(k.type)) = 'exec');
  end if;
  if not touches and tg_op <> 'DELETE' and jsonb_typeof(new.spec) = 'object' then
    touches := new.spec ? 'exec' or coalesce(jsonb_typeof(new.spec -> 'spec') = 'object' and (new.spec -> 'spec') ? 'exec', false);
  end if;
  if touches and not exec_writer_is_admin(person) then
    raise exception using
      errcode = 'insufficient_privilege',
      message = 'Exec checks need the execute permission',
      detail = format('%s of a canary that holds exec checks', initcap(tg_op)),
      hint = 'Only administrators may create, change or remove exec checks; ask one to make this change';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create or replace function checks_exec_guard() returns trigger language plpgsql as $$
declare
  person text := nullif(current_setting('opsdeck.person_id', true), '');
  touches boolean := false;
begin
  if person is null then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op <> 'INSERT' then
    touches := coalesce(lower(btrim(old.type)) = 'exec', false);
  end if;
  if not touches and tg_op <> 'DELETE' then
    touches := coalesce(lower(btrim(new.type)) = 'exec', false);
  end if;
  if touches and not exec_writer_is_admin(person) then
    raise exception using
      errcode = 'insufficient_privilege',
      message = 'Exec checks need the execute permission',
      detail = format('%s of an exec check', initcap(tg_op)),
      hint = 'Only administrators may create, change or remove exec checks; ask one to make this change';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
