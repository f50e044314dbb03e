-- Notification delivery (ADR 0057): one send-history row per notification, event and recipient. The idempotency key
-- names that triple, so an event the queue hands over again (a retry after a failure, a lease that ran out) re-sends
-- only to the recipients whose row is not yet sent or skipped.
alter table notification_send_history add column idempotency_key text;
-- An email address or a connection reference: what the row was sent to, for the history screen and the flap window.
alter table notification_send_history add column recipient text;
alter table notification_send_history add column connection_id uuid references connections (id) on delete set null;
-- Why a row was skipped (flapping inside the window); kept apart from error so skips do not count as failures.
alter table notification_send_history add column reason text;

create unique index notification_send_history_idempotency_key on notification_send_history (idempotency_key);

-- The open flap window of a notification, resource and recipient: the message that opened it was sent (or is being
-- sent), flips until the window has passed are skipped. Claiming a window is one insert … on conflict do update …
-- where expired, so two delivery loops handling two flips at once cannot both send, on PGlite or PostgreSQL.
create table notification_flap_windows (
  notification_id uuid not null references notifications (id) on delete cascade,
  resource_id uuid not null,
  recipient text not null,
  source_event text not null,
  opened_at timestamptz not null default now(),
  constraint notification_flap_windows_pkey primary key (notification_id, resource_id, recipient)
);

-- The delivery consumer subscribes only to the events some live notification names, kept here by a trigger rather
-- than by the consumer's start: an event nobody is notified of is not written (ADR 0055), so a catalog load pays for
-- config.created only once a notification asks for it.
create or replace function notifications_event_subscriptions() returns trigger language plpgsql as $$
begin
  delete from event_queue_subscriptions s
   where s.consumer = 'notifications'
     and not exists (select 1 from notifications n where n.deleted_at is null and s.name = any (n.events));
  insert into event_queue_subscriptions (consumer, name)
  select distinct 'notifications', e.name
    from notifications n cross join lateral unnest(n.events) as e(name)
   where n.deleted_at is null
  on conflict do nothing;
  return null;
end $$;
create trigger notifications_event_subscriptions after insert or update or delete on notifications
  for each statement execute function notifications_event_subscriptions();

insert into event_queue_subscriptions (consumer, name)
select distinct 'notifications', e.name
  from notifications n cross join lateral unnest(n.events) as e(name)
 where n.deleted_at is null
on conflict do nothing;
