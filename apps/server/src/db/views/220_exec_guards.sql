-- canaries_exec_guard, checks_exec_guard: exec checks run scripts on the server, so writing one needs the execute
-- permission, which only admins hold (packages/shared/src/roles.ts).
-- History: 0069 0115
-- The data API marks each of its transactions with the caller in opsdeck.person_id; these triggers refuse that
-- caller's writes touching an exec check unless the caller is an admin and the roles the request acts with
-- (opsdeck.roles, an API token's capped ones) include admin (exec_writer_is_admin, 0115), whichever filter, upsert,
-- updatable view or cascade reaches the row. The server's own writes (scheduler, canary sync, the canary routes, which
-- check the permission in code) carry no person and pass.

-- A spec lists exec checks under `exec`, bare or inside a `kind: Canary` resource (canary-spec.ts unwrapResource); any
-- such key counts, even one that does not validate, since the canary editor may fix it later. Exec check rows written
-- straight into checks belong to the canary too: a sync after this write would remove them. A check row runs exec
-- checks when its type is exec, or when its spec lists them: a junit report's row (resultMode: junit) holds its
-- canary's check lists and runs each (exec-permission.ts checkRowRunsExec).
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
    touches := exists (select 1 from checks k where k.canary_id = old.id and k.deleted_at is null
                         and (lower(btrim(k.type)) = 'exec' or coalesce(jsonb_typeof(k.spec) = 'object' and k.spec ? 'exec', false)));
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
    touches := coalesce(lower(btrim(old.type)) = 'exec', false) or coalesce(jsonb_typeof(old.spec) = 'object' and old.spec ? 'exec', false);
  end if;
  if not touches and tg_op <> 'DELETE' then
    touches := coalesce(lower(btrim(new.type)) = 'exec', false) or coalesce(jsonb_typeof(new.spec) = 'object' and new.spec ? 'exec', false);
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
