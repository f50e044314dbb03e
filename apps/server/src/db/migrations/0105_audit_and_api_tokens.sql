-- Current definitions: views/600_audit_log_append_only.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- #19: the audit trail of every write through the API, and personal API tokens.

-- One row per successful write request (status < 400) under /api/, written by the server's audit hook
-- (modules/audit). Rows are only ever added: a trigger refuses UPDATE, DELETE and TRUNCATE, except the retention purge,
-- which marks its own transaction with `set local opsdeck.audit_purge = 'on'`. No foreign key to people: the trail
-- outlives the person (a removed user's writes stay attributed to the id and name they had).
create table audit_log (
  id uuid primary key default gen_random_uuid(),
  at timestamptz not null default now(),
  actor_id uuid,
  actor_name text,
  -- session: a browser session or a session bearer token; api_token: a personal API token (odt_…); agent: a remote
  -- agent's token; system: the server itself (the retention purge); anonymous: a public route (sign-in, recovery).
  via text not null check (via in ('session', 'api_token', 'agent', 'system', 'anonymous')),
  api_token_id uuid,
  method text not null,
  -- The route pattern (/api/canary/connections/:id), never the raw URL with its query string.
  route text not null,
  -- A data API table or function, or a domain route's permission resource.
  resource text,
  resource_id text,
  -- Every row a data API write touched (at most 1000 are kept).
  resource_ids text[],
  action text not null,
  changed_fields text[] not null default '{}',
  -- Non-secret values as written, truncated; null for the identity self-service routes, whose bodies are never kept.
  changes jsonb,
  status smallint not null,
  request_id text
);

-- The page's default order, the time-range filter and the retention purge.
create index audit_log_at_idx on audit_log (at desc, id desc);
create index audit_log_actor_idx on audit_log (actor_id, at desc);
create index audit_log_resource_idx on audit_log (resource, at desc);
create index audit_log_action_idx on audit_log (action, at desc);

create function audit_log_append_only() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('opsdeck.audit_purge', true) = 'on' then
    return old;
  end if;
  raise exception 'audit_log is append-only: % is not allowed', tg_op
    using errcode = 'ODAU1', hint = 'Old rows leave only through the retention purge (property audit.retention.days)';
end;
$$;

create trigger audit_log_append_only before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();

-- The purge runs in worker processes, once an hour, under a lease like the other retention (0093).
insert into maintenance_jobs (name, next_runtime) values ('audit_retention', now() + interval '1 hour');

-- Personal API tokens: `Authorization: Bearer odt_<43 base64url characters>`. Only the SHA-256 of the token is kept.
-- The token acts with `role`, never above what its owner holds at the time of use (auth/authenticator.ts).
create table api_tokens (
  id uuid primary key default gen_random_uuid(),
  person_id uuid not null references people (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100),
  token_hash text not null unique,
  role text not null check (role in ('admin', 'editor', 'commander', 'responder', 'viewer')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  check (expires_at > created_at and expires_at <= created_at + interval '366 days')
);
create index api_tokens_person_idx on api_tokens (person_id, created_at desc);
