-- Current definitions: views/410_agent_outbox_capture.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Agent side (ADR 0056): what the agent pushes names upstream's scrapers and canaries, not its local copies, so
-- upstream links a pushed item to its scraper and a pushed job to its resource; a folded config change (its count
-- raised by a later scrape) is pushed again with the new count.
-- PostgreSQL 15 syntax: it also runs on PGlite.
create or replace function agent_outbox_capture() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'check_statuses' then
    insert into agent_outbox (kind, payload)
    select 'check_status', jsonb_build_object(
      'canary', c.name, 'namespace', c.namespace, 'type', k.type, 'name', k.name,
      'description', k.description, 'endpoint', k.endpoint, 'labels', k.labels, 'spec', k.spec,
      'time', new.time, 'status', new.status, 'duration', new.duration, 'message', new.message, 'error', new.error,
      'details', new.details)
    from checks k join canaries c on c.id = k.canary_id
    where k.id = new.check_id;
  elsif tg_table_name = 'job_history' then
    insert into agent_outbox (kind, payload)
    values ('job_history', to_jsonb(new) || jsonb_build_object('resource_id', coalesce(
      (select s.upstream_id from config_scrapers s where s.id = new.resource_id),
      (select c.upstream_id from canaries c where c.id = new.resource_id),
      new.resource_id)));
  elsif tg_table_name = 'config_items' then
    if tg_op = 'DELETE' then
      insert into agent_outbox (kind, payload) values ('config_item_deleted', jsonb_build_object('id', old.id));
      return old;
    end if;
    insert into agent_outbox (kind, payload)
    values ('config_item', to_jsonb(new) - 'config_class' - 'path'
                           || jsonb_build_object('scraper_id', (select s.upstream_id from config_scrapers s where s.id = new.scraper_id)));
  elsif tg_table_name = 'config_changes' then
    insert into agent_outbox (kind, payload) values ('config_change', to_jsonb(new));
  end if;
  return new;
end;
$$;
