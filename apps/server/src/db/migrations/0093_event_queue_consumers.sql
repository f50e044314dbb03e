-- Current definitions: views/400_event_queue_summary.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Several consumers of one event name (ADR 0055): an event written without a consumer is copied, in the same
-- statement, into one row per consumer subscribed to its name, so each consumer has its own attempts, backoff and
-- error. An event nobody subscribed to keeps consumer null and is claimed by consumers that did not give a name.
alter table event_queue add column consumer text;

create table event_queue_subscriptions (
  consumer text not null,
  name text not null,
  created_at timestamptz not null default now(),
  constraint event_queue_subscriptions_pkey primary key (name, consumer)
);

drop index event_queue_pick_idx;
create index event_queue_pick_idx on event_queue (name, consumer, priority desc, created_at);
-- Retention looks for old rows by age.
create index event_queue_created_at_idx on event_queue (created_at);

create or replace function event_queue_fan_out() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from new_events n join event_queue_subscriptions s on s.name = n.name where n.consumer is null) then
    return null;
  end if;
  insert into event_queue (name, properties, priority, consumer, created_at)
  select n.name, n.properties, n.priority, s.consumer, n.created_at
    from new_events n join event_queue_subscriptions s on s.name = n.name
   where n.consumer is null;
  delete from event_queue q
   using new_events n
   where q.id = n.id and n.consumer is null
     and exists (select 1 from event_queue_subscriptions s where s.name = n.name);
  return null;
end $$;
create trigger event_queue_fan_out after insert on event_queue
  referencing new table as new_events for each statement execute function event_queue_fan_out();

-- Domain events of catalog writes, whoever makes them (scrapers, agent pushes, the data API), in the writer's
-- transaction. Statement-level triggers with transition tables keep a scrape of thousands of items to one extra
-- insert per statement. Updates that change nothing listed below (a re-scrape stamping last_scraped_time) are silent.
-- Only names some consumer subscribed to are written: a catalog of 100,000 items would otherwise leave 100,000
-- config.created rows that nobody reads, and make every scrape pay for them.
create or replace function event_queue_wanted(event_name text) returns boolean language sql stable as $$
  select exists (select 1 from event_queue_subscriptions s where s.name = event_name)
$$;

create or replace function config_items_created_events() returns trigger language plpgsql as $$
begin
  if not event_queue_wanted('config.created') then
    return null;
  end if;
  insert into event_queue (name, properties)
  select 'config.created', jsonb_build_object('id', n.id, 'config_id', n.id, 'name', n.name, 'type', n.type, 'health', n.health, 'agent_id', n.agent_id)
    from new_items n
   where n.deleted_at is null;
  return null;
end $$;
create trigger config_items_created_events after insert on config_items
  referencing new table as new_items for each statement execute function config_items_created_events();

create or replace function config_items_updated_events() returns trigger language plpgsql as $$
begin
  insert into event_queue (name, properties)
  select e.name, e.properties
    from new_items n
    join old_items o on o.id = n.id
   cross join lateral (values
     (case when n.deleted_at is not null and o.deleted_at is null then 'config.deleted'
           when n.deleted_at is null and (o.name, o.type, o.description, o.status, o.health, o.ready, o.parent_id, o.deleted_at)
                is distinct from (n.name, n.type, n.description, n.status, n.health, n.ready, n.parent_id, n.deleted_at)
                or o.config is distinct from n.config or o.tags is distinct from n.tags or o.labels is distinct from n.labels
                or o.properties is distinct from n.properties then 'config.updated' end,
      jsonb_build_object('id', n.id, 'config_id', n.id, 'name', n.name, 'type', n.type, 'health', n.health, 'agent_id', n.agent_id)),
     (case when n.deleted_at is null and n.health is distinct from o.health then 'config.' || n.health end,
      jsonb_build_object('id', n.id, 'config_id', n.id, 'name', n.name, 'type', n.type, 'health', n.health,
                         'previous_health', o.health, 'agent_id', n.agent_id))
   ) as e (name, properties)
   where e.name is not null and event_queue_wanted(e.name);
  return null;
end $$;
create trigger config_items_updated_events after update on config_items
  referencing old table as old_items new table as new_items for each statement execute function config_items_updated_events();

create or replace function config_items_deleted_events() returns trigger language plpgsql as $$
begin
  insert into event_queue (name, properties)
  select 'config.deleted', jsonb_build_object('id', o.id, 'config_id', o.id, 'name', o.name, 'type', o.type, 'agent_id', o.agent_id)
    from old_items o
   where o.deleted_at is null and event_queue_wanted('config.deleted');
  return null;
end $$;
create trigger config_items_deleted_events after delete on config_items
  referencing old table as old_items for each statement execute function config_items_deleted_events();

-- component.<status> when a component's status changes (or a new component starts with a known one).
create or replace function components_status_events() returns trigger language plpgsql as $$
begin
  insert into event_queue (name, properties)
  select 'component.' || n.status,
         jsonb_build_object('id', n.id, 'component_id', n.id, 'name', n.name, 'topology_id', n.topology_id, 'status', n.status,
                            'previous_status', o.status, 'status_reason', n.status_reason)
    from new_components n
    join old_components o on o.id = n.id
   where n.status is distinct from o.status and n.deleted_at is null and event_queue_wanted('component.' || n.status);
  return null;
end $$;
create trigger components_status_events after update on components
  referencing old table as old_components new table as new_components for each statement execute function components_status_events();

-- The summary per event name and consumer; consumer is null for events nobody subscribed to.
drop view event_queue_summary;
create view event_queue_summary as
select q.name,
       q.consumer,
       (count(*) filter (where q.error is null))::integer as pending,
       (count(*) filter (where q.error is not null))::integer as failed,
       round(avg(q.attempts), 2)::double precision as average_attempts,
       min(q.last_attempt) filter (where q.error is not null) as first_failure,
       max(q.last_attempt) filter (where q.error is not null) as last_failure,
       mode() within group (order by q.error) filter (where q.error is not null) as most_common_error
  from event_queue q
 group by q.name, q.consumer;

-- When the retention job runs next and who holds it, so one worker of many runs it. The first run waits a day, so a
-- freshly seeded demo keeps its back-dated history until then.
create table maintenance_jobs (
  name text primary key,
  next_runtime timestamptz not null default now() + interval '1 day',
  lease_owner text,
  lease_expires_at timestamptz
);
insert into maintenance_jobs (name) values ('retention');
