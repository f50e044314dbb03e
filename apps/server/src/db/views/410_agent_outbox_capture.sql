-- agent_outbox_capture: fills agent_outbox in the transaction that produced the row (ADR 0056).
-- History: 0094 0097
-- The triggers that call it are created only when the process runs as an agent (src/agent/outbox.ts), so a normal
-- server's inserts pay nothing for it. What the agent pushes names upstream's scrapers and canaries, not its local
-- copies, so upstream links a pushed item to its scraper and a pushed job to its resource.
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
