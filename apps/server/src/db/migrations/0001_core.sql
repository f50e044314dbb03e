-- Core: people, teams, identities, credentials, sessions, roles and properties (feature flags).
-- PostgreSQL 15 syntax: it also runs on PGlite.


create or replace function set_updated_at() returns trigger language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create table people (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text,
  avatar text,
  type text not null default 'person',
  team_id uuid,
  properties jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index people_email_key on people (lower(email)) where deleted_at is null and email is not null;
create index people_name_idx on people (name);
create trigger people_updated_at before update on people for each row execute function set_updated_at();

create table teams (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  icon text,
  spec jsonb not null default '{}'::jsonb,
  source text,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index teams_name_idx on teams (name) where deleted_at is null;
create trigger teams_updated_at before update on teams for each row execute function set_updated_at();

alter table people add constraint people_team_id_fkey foreign key (team_id) references teams (id);

create table team_members (
  team_id uuid not null references teams (id) on delete cascade,
  person_id uuid not null references people (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (team_id, person_id)
);
create index team_members_person_idx on team_members (person_id);

-- Roles live apart from people so that writing a person (editor) can never grant a role (rbac, admin only).
create table person_roles (
  person_id uuid not null references people (id) on delete cascade,
  role text not null check (role in ('admin', 'editor', 'commander', 'responder', 'viewer')),
  created_at timestamptz not null default now(),
  primary key (person_id, role)
);

create view people_roles as
  select p.id, p.name, p.email,
         coalesce(array_agg(r.role order by r.role) filter (where r.role is not null), '{}'::text[]) as roles
    from people p
    left join person_roles r on r.person_id = p.id
   where p.deleted_at is null
   group by p.id;

-- Identities follow the shape of a Kratos identity: the person is the profile, traits hold what the flows collect.
create table identities (
  id uuid primary key references people (id) on delete cascade,
  schema_id text not null default 'default',
  state text not null default 'active' check (state in ('active', 'inactive')),
  traits jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger identities_updated_at before update on identities for each row execute function set_updated_at();

create table identity_credentials (
  id uuid primary key default gen_random_uuid(),
  identity_id uuid not null references identities (id) on delete cascade,
  type text not null check (type in ('password', 'oidc', 'totp', 'lookup_secret', 'webauthn')),
  identifiers text[] not null default '{}',
  config jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (identity_id, type)
);
create index identity_credentials_identifiers_idx on identity_credentials using gin (identifiers);
create trigger identity_credentials_updated_at before update on identity_credentials for each row execute function set_updated_at();

create table sessions (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  identity_id uuid not null references identities (id) on delete cascade,
  aal text not null default 'aal1',
  authentication_methods jsonb not null default '[]'::jsonb,
  authenticated_at timestamptz not null default now(),
  issued_at timestamptz not null default now(),
  expires_at timestamptz not null,
  logout_token_hash text,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sessions_identity_idx on sessions (identity_id);
create index sessions_expires_idx on sessions (expires_at);

create table properties (
  name text primary key,
  value text not null,
  description text,
  source text,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger properties_updated_at before update on properties for each row execute function set_updated_at();
