-- Current definitions: views/230_scraper_exec_guard.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Exec scrapers run scripts on the server (ADR 0072), so creating, changing or removing one needs the execute
-- permission, as exec checks do (0069). The data API's validator sees only the values sent; this trigger sees every
-- row a filtered PATCH, an upsert or a DELETE reaches.

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

create trigger config_scrapers_exec_guard before insert or update or delete on config_scrapers
  for each row execute function config_scrapers_exec_guard();
