-- Topology: topologies, their component trees, and the links from components to components, teams and configs.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create table topologies (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  description text,
  icon text,
  labels jsonb not null default '{}'::jsonb,
  spec jsonb not null default '{}'::jsonb,
  schedule text,
  source text not null default 'UI',
  agent_id uuid references agents (id) on delete set null,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index topologies_created_at_idx on topologies (created_at desc);
create trigger topologies_updated_at before update on topologies for each row execute function set_updated_at();

create table components (
  id uuid primary key default gen_random_uuid(),
  topology_id uuid references topologies (id) on delete cascade,
  parent_id uuid references components (id) on delete cascade,
  -- Dot-separated ids of the ancestors, root first; empty for a root. Kept by triggers from parent_id.
  path text not null default '',
  agent_id uuid references agents (id) on delete set null,
  external_id text,
  name text not null,
  text text,
  namespace text,
  type text,
  icon text,
  description text,
  owner text,
  lifecycle text,
  status text not null default 'unknown' check (status in ('healthy', 'unhealthy', 'warning', 'unknown')),
  status_reason text,
  is_leaf boolean not null default false,
  hidden boolean not null default false,
  labels jsonb not null default '{}'::jsonb,
  -- [{name, type, text, value, max, unit, icon, color, headline, links, hidden, namespace}]
  properties jsonb not null default '[]'::jsonb,
  -- {checks: {healthy, unhealthy, warning, unknown}, incidents: {<type>: {<severity>: n}}, insights: {...}}
  summary jsonb not null default '{}'::jsonb,
  -- Log selectors offered on the logs page; a component without them has no logs.
  log_selectors jsonb,
  cost_per_minute numeric(16, 4),
  cost_total_1d numeric(16, 4),
  cost_total_7d numeric(16, 4),
  cost_total_30d numeric(16, 4),
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index components_topology_idx on components (topology_id);
create index components_parent_idx on components (parent_id) where parent_id is not null;
create index components_path_idx on components (path text_pattern_ops) where path <> '';
create index components_name_idx on components (name);
create index components_type_idx on components (type);
create index components_agent_idx on components (agent_id) where agent_id is not null;
create index components_labels_idx on components using gin (labels jsonb_path_ops);
create index components_external_id_idx on components (external_id) where external_id is not null;
create trigger components_updated_at before update on components for each row execute function set_updated_at();

create or replace function components_derive_path() returns trigger language plpgsql as $$
begin
  if new.parent_id is null then
    new.path := '';
  elsif tg_op = 'INSERT' or new.parent_id is distinct from old.parent_id then
    select case when p.path = '' then p.id::text else p.path || '.' || p.id::text end
      into new.path
      from components p
     where p.id = new.parent_id;
  end if;
  return new;
end;
$$;
create trigger components_derive_path before insert or update of parent_id, path on components
  for each row execute function components_derive_path();

-- Moving a component moves its subtree: the descendants' paths start with the component's old full path.
create or replace function components_move_subtree() returns trigger language plpgsql as $$
declare
  old_full text := case when old.path = '' then old.id::text else old.path || '.' || old.id::text end;
  new_full text := case when new.path = '' then new.id::text else new.path || '.' || new.id::text end;
begin
  update components c
     set path = new_full || substr(c.path, length(old_full) + 1)
   where c.path = old_full or c.path like old_full || '.%';
  return null;
end;
$$;
create trigger components_move_subtree after update of parent_id on components
  for each row when (old.parent_id is distinct from new.parent_id) execute function components_move_subtree();

-- Links between components outside the parent tree (a component listed under several parents).
create table component_relationships (
  component_id uuid not null references components (id) on delete cascade,
  relationship_id uuid not null references components (id) on delete cascade,
  selector_id text not null default '',
  relationship_path text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint component_relationships_pkey primary key (component_id, relationship_id, selector_id)
);
create index component_relationships_relationship_idx on component_relationships (relationship_id);
create trigger component_relationships_updated_at before update on component_relationships
  for each row execute function set_updated_at();

create table team_components (
  team_id uuid not null references teams (id) on delete cascade,
  component_id uuid not null references components (id) on delete cascade,
  role text,
  selector_id text not null default 'manual',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint team_components_pkey primary key (team_id, component_id, selector_id)
);
create index team_components_component_idx on team_components (component_id);
create trigger team_components_updated_at before update on team_components for each row execute function set_updated_at();

create table config_component_relationships (
  component_id uuid not null references components (id) on delete cascade,
  config_id uuid not null references config_items (id) on delete cascade,
  -- 'manual' marks a link a user made.
  selector_id text not null default 'manual',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint config_component_relationships_pkey primary key (component_id, config_id, selector_id)
);
create index config_component_relationships_config_idx on config_component_relationships (config_id);
create trigger config_component_relationships_updated_at before update on config_component_relationships
  for each row execute function set_updated_at();
