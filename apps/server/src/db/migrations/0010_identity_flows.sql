-- Self-service identity flows (Kratos-shaped) and the failed-login ledger behind the sign-in rate limit.
-- Like sessions and credentials, these tables hold authentication secrets (hashed) and are for the auth module only.

-- One table for every flow type: the stored `ui` is the flow's current form (nodes and messages) without the CSRF
-- value, so a later registration, recovery, verification or settings flow only needs its own node builders.
create table self_service_flows (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('login', 'registration', 'recovery', 'verification', 'settings')),
  -- Kratos distinguishes browser flows (cookies, redirects) from api flows (native apps); only browser ones exist now.
  flow_type text not null default 'browser' check (flow_type in ('browser', 'api')),
  state text not null default 'choose_method'
    check (state in ('choose_method', 'sent_email', 'passed_challenge', 'show_form', 'success')),
  return_to text,
  request_url text not null,
  csrf_token_hash text not null,
  refresh boolean not null default false,
  requested_aal text not null default 'aal1' check (requested_aal in ('aal1', 'aal2')),
  -- Set when the flow belongs to a known identity: a refresh login, a settings flow, or once a login has succeeded.
  identity_id uuid references identities (id) on delete cascade,
  ui jsonb not null,
  issued_at timestamptz not null default now(),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index self_service_flows_expires_idx on self_service_flows (expires_at);
create trigger self_service_flows_updated_at before update on self_service_flows for each row execute function set_updated_at();

-- The identifier is stored hashed: people sometimes type their password into the identifier field.
create table login_failures (
  identifier_hash text not null,
  failed_at timestamptz not null default now()
);
create index login_failures_identifier_idx on login_failures (identifier_hash, failed_at);

create index sessions_logout_token_idx on sessions (logout_token_hash) where logout_token_hash is not null;
