-- The demo's own inbox (ADR 0085): the demo's webhook and mail connections deliver here, so a fresh install shows
-- notifications arriving instead of failing against a port nothing listens on. Only a server seeding the demo data
-- receives into it; the table exists everywhere so that the schema does not depend on how a server was started.
create table demo_inbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('webhook', 'email')),
  -- The webhook path's last segment, or the mail's first recipient.
  channel text not null,
  sender text,
  recipients text[] not null default '{}',
  subject text,
  content_type text,
  body text not null,
  received_at timestamptz not null default now()
);

create index demo_inbox_received on demo_inbox (received_at desc, id desc);
