-- Mission Control's groupBy (issue #32, docs/notifications.md): the resources whose events a notification with
-- properties.groupBy sends are gathered into groups by the values of its keys (label:app, type, ...). A group lives for
-- the notification's groupByInterval from its creation: a later event with the same values joins the newest group
-- still inside it, or opens a new one. A message lists the other members of its group that still have a health the
-- notification sends, and inside the repeat interval one message per group and event goes out, as in Mission Control.
-- Groups belong to one notification, so a message never names resources another notification gathered.
create table notification_groups (
  id uuid primary key default gen_random_uuid(),
  notification_id uuid not null references notifications (id) on delete cascade,
  -- sha256 of the group's key values.
  hash text not null,
  created_at timestamptz not null default now()
);
-- The join's lookup: the newest group of a notification and hash.
create index notification_groups_lookup_idx on notification_groups (notification_id, hash, created_at desc);

create table notification_group_resources (
  group_id uuid not null references notification_groups (id) on delete cascade,
  resource_id uuid not null,
  family text not null check (family in ('check', 'component', 'config')),
  created_at timestamptz not null default now(),
  constraint notification_group_resources_pkey primary key (group_id, resource_id)
);

-- The group an event's rows were sent for: the repeat interval of a grouped notification counts per group.
alter table notification_send_history add column group_id uuid references notification_groups (id) on delete set null;
create index notification_send_history_group_idx on notification_send_history (group_id, source_event, created_at desc) where group_id is not null;
