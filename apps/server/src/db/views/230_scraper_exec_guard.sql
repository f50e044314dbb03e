-- config_scrapers_exec_guard: an exec scraper runs a script on the server (ADR 0072), so writing one needs the execute
-- permission, which only admins hold (packages/shared/src/roles.ts), as for exec checks (220_exec_guards.sql).
-- History: 0117
-- The data API marks each of its transactions with the caller in opsdeck.person_id; this trigger refuses that caller's
-- insert, update or delete of a scraper whose spec (old or new) lists `exec` sources, bare or inside a `kind:
-- ScrapeConfig` resource, unless exec_writer_is_admin. The server's own writes (scheduler, seed) carry no person.
create or replace function config_scrapers_exec_guard() returns trigger language plpgsql as $$
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
  if not touches and tg_op <> 'DELETE' and jsonb_typeof(new.spec) = 'object' then
    touches := new.spec ? 'exec' or coalesce(jsonb_typeof(new.spec -> 'spec') = 'object' and (new.spec -> 'spec') ? 'exec', false);
  end if;
  if touches and not exec_writer_is_admin(person) then
    raise exception using
      errcode = 'insufficient_privilege',
      message = 'Exec scrapers need the execute permission',
      detail = format('%s of a scraper that runs a script', initcap(tg_op)),
      hint = 'Only administrators may create, change or remove a scraper that runs a script; ask one to make this change';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
