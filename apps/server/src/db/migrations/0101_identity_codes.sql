-- The e-mail side of the identity service (docs/identity.md): the addresses people prove they own, the one-time codes
-- and recovery links sent to them, and the ledger that throttles registration, recovery and verification. Like the
-- other `identity_` tables these are unreachable through /api/db (data-api/resource-map.ts), for every role.

-- One row per address an identity has in its traits, as Kratos keeps verifiable addresses. A trigger keeps the rows in
-- step with traits.email whoever writes the identity (registration, an invitation, the settings flow, the data API):
-- a new or changed address starts unverified, and only a code or link sent to it marks it verified.
create table identity_verifiable_addresses (
  id uuid primary key default gen_random_uuid(),
  identity_id uuid not null references identities (id) on delete cascade,
  value text not null,
  verified boolean not null default false,
  verified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (identity_id, value)
);
create index identity_verifiable_addresses_value_idx on identity_verifiable_addresses (value);
create trigger identity_verifiable_addresses_updated_at before update on identity_verifiable_addresses
  for each row execute function set_updated_at();

create or replace function sync_identity_verifiable_address() returns trigger language plpgsql as $$
declare
  address text := lower(btrim(coalesce(new.traits ->> 'email', '')));
begin
  if tg_op = 'UPDATE' and lower(btrim(coalesce(old.traits ->> 'email', ''))) = address then
    return new;
  end if;
  delete from identity_verifiable_addresses where identity_id = new.id and value <> address;
  if address <> '' then
    insert into identity_verifiable_addresses (identity_id, value) values (new.id, address)
      on conflict (identity_id, value) do nothing;
  end if;
  return new;
end;
$$;

create trigger identities_sync_verifiable_address
  after insert or update of traits on identities
  for each row execute function sync_identity_verifiable_address();

-- Identities from before this migration: their addresses were never proven, so they start unverified.
insert into identity_verifiable_addresses (identity_id, value)
select id, lower(btrim(traits ->> 'email')) from identities where coalesce(btrim(traits ->> 'email'), '') <> ''
on conflict (identity_id, value) do nothing;

-- Recovery and verification codes (six digits, tied to their flow) and recovery links (a random token, tied to an
-- identity, for invitations). Only a hash is stored: a keyed HMAC for codes, which are short enough to be guessed
-- offline from a plain hash, and SHA-256 for the 256-bit link tokens. A code for an address nobody has is stored too,
-- with no identity, so asking for one costs the same either way and no code can ever open it.
create table identity_codes (
  id uuid primary key default gen_random_uuid(),
  purpose text not null check (purpose in ('recovery', 'verification', 'recovery_link')),
  flow_id uuid references self_service_flows (id) on delete cascade,
  identity_id uuid references identities (id) on delete cascade,
  address text,
  code_hash text not null,
  -- Wrong codes tried against this code's flow while it was the flow's current one; a flow allows five in all.
  failed_attempts int not null default 0,
  expires_at timestamptz not null,
  -- Set when the code was used, replaced by a newer one, or locked after too many wrong tries.
  spent_at timestamptz,
  created_at timestamptz not null default now(),
  check ((purpose = 'recovery_link') = (flow_id is null)),
  check (purpose <> 'recovery_link' or identity_id is not null)
);
create index identity_codes_flow_idx on identity_codes (flow_id, created_at) where flow_id is not null;
create unique index identity_codes_link_idx on identity_codes (code_hash) where purpose = 'recovery_link';
create index identity_codes_identity_idx on identity_codes (identity_id) where identity_id is not null;
create index identity_codes_expires_idx on identity_codes (expires_at);

-- Throttling of the e-mail flows, as login_failures does for sign-in (ADR 0011): wrong codes and refused registrations
-- ('failure') and requests for a mail ('mail'), per flow kind. Identifiers and client addresses are keyed HMACs.
create table identity_flow_events (
  scope text not null check (scope in ('registration', 'recovery', 'verification')),
  kind text not null check (kind in ('failure', 'mail')),
  identifier_hash text not null,
  address_hash text not null,
  happened_at timestamptz not null default now()
);
create index identity_flow_events_pair_idx on identity_flow_events (scope, kind, identifier_hash, address_hash, happened_at);
create index identity_flow_events_address_idx on identity_flow_events (scope, kind, address_hash, happened_at);
create index identity_flow_events_happened_idx on identity_flow_events (happened_at);

-- Registration may name where to go once the address is verified (Kratos's after_verification_return_to); it becomes
-- the return_to of the verification flow the registration starts.
alter table self_service_flows add column after_verification_return_to text;
