-- Current definitions: views/410_agent_outbox_capture.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- Remote agents push their results upstream (issue #15 item 2, ADR 0056).
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- Upstream: every batch an agent delivered. The primary key makes a resent batch (same id after a lost answer) a
-- no-op, which is what makes delivery exactly-once on top of the agent's at-least-once retries.
create table agent_push_batches (
  agent_id uuid not null references agents (id) on delete cascade,
  batch_id uuid not null,
  row_count integer not null,
  received_at timestamptz not null default now(),
  constraint agent_push_batches_pkey primary key (agent_id, batch_id)
);
create index agent_push_batches_received_idx on agent_push_batches (received_at);

-- Agent side: results waiting to be pushed, in the order they were produced (seq). batch_id is set when a batch is
-- formed and kept across retries, so upstream recognises a batch it already applied.
create table agent_outbox (
  seq bigserial primary key,
  kind text not null check (kind in ('check_status', 'job_history', 'config_item', 'config_item_deleted', 'config_change')),
  payload jsonb not null,
  batch_id uuid,
  created_at timestamptz not null default now()
);
create index agent_outbox_batch_idx on agent_outbox (batch_id) where batch_id is not null;

-- Agent side: canaries and scrapers copied from upstream's assignments, keyed by upstream's id, so a later pull
-- updates or removes the local copy instead of adding another.
alter table canaries add column upstream_id uuid;
create unique index canaries_upstream_id_key on canaries (upstream_id) where upstream_id is not null;
alter table config_scrapers add column upstream_id uuid;
create unique index config_scrapers_upstream_id_key on config_scrapers (upstream_id) where upstream_id is not null;

-- Fills agent_outbox in the transaction that produced the row. The triggers that call it are created only when the
-- process runs as an agent (src/agent/outbox.ts), so a normal server's inserts pay nothing for it.
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
    insert into agent_outbox (kind, payload) values ('job_history', to_jsonb(new));
  elsif tg_table_name = 'config_items' then
    if tg_op = 'DELETE' then
      insert into agent_outbox (kind, payload) values ('config_item_deleted', jsonb_build_object('id', old.id));
      return old;
    end if;
    insert into agent_outbox (kind, payload) values ('config_item', to_jsonb(new) - 'config_class' - 'path');
  elsif tg_table_name = 'config_changes' then
    insert into agent_outbox (kind, payload) values ('config_change', to_jsonb(new));
  end if;
  return new;
end;
$$;
