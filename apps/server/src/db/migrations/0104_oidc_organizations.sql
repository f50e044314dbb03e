-- Hosted mode (OPSDECK_OIDC_*): organizations as the OpenID Connect provider reports them in a claim.
--
-- The provider is the authority on who belongs where, so these rows are rewritten from the claim at every sign-in
-- and nothing else writes them. The `oidc_` names keep them out of the data API (resource-map.ts treats every
-- name with the word oidc as identity machinery), so no role can add itself to an organization through it.

-- The provider's organization id is the key: ids are whatever the provider uses (a slug, a uuid, a group path).
create table oidc_organizations (
  id text primary key check (length(id) between 1 and 200),
  name text not null check (length(name) between 1 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger oidc_organizations_updated_at before update on oidc_organizations for each row execute function set_updated_at();

-- chosen_at remembers the person's last choice, so a new session starts in it rather than asking again.
create table oidc_person_organizations (
  person_id uuid not null references people (id) on delete cascade,
  organization_id text not null references oidc_organizations (id) on delete cascade,
  chosen_at timestamptz,
  primary key (person_id, organization_id)
);
create index oidc_person_organizations_organization_idx on oidc_person_organizations (organization_id);

-- The organization a session works in. Kept beside sessions rather than in it: only hosted mode has organizations.
create table oidc_session_organizations (
  session_id uuid primary key references sessions (id) on delete cascade,
  organization_id text not null references oidc_organizations (id) on delete cascade
);
