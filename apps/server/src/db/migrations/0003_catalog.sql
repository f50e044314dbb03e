-- Catalog: scrapers, configuration items, their changes, analyses (insights) and relationships.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create table config_scrapers (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  namespace text not null default 'default',
  description text,
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
create index config_scrapers_created_at_idx on config_scrapers (created_at desc);
create index config_scrapers_agent_idx on config_scrapers (agent_id) where agent_id is not null and deleted_at is null;
create trigger config_scrapers_updated_at before update on config_scrapers for each row execute function set_updated_at();

create table config_items (
  id uuid primary key default gen_random_uuid(),
  scraper_id uuid references config_scrapers (id) on delete set null,
  agent_id uuid references agents (id) on delete set null,
  -- Identifiers of the item in its source system (an ARN, a Kubernetes uid, ...).
  external_id text[] not null default '{}',
  -- 'Class::Subtype', e.g. Kubernetes::Pod; config_class is kept equal to the part before '::' by a trigger.
  type text not null,
  config_class text not null,
  name text not null,
  description text,
  status text,
  health text check (health in ('healthy', 'unhealthy', 'warning', 'unknown')),
  ready boolean,
  parent_id uuid references config_items (id) on delete set null,
  -- Dot-separated ids of the ancestors, root first; empty for a root.
  path text not null default '',
  tags jsonb not null default '{}'::jsonb,
  labels jsonb not null default '{}'::jsonb,
  properties jsonb not null default '[]'::jsonb,
  -- The scraped content; format says how to render it (json, yaml, xml, properties, ...).
  config jsonb,
  format text,
  source text,
  cost_per_minute numeric(16, 4),
  cost_total_1d numeric(16, 4),
  cost_total_7d numeric(16, 4),
  cost_total_30d numeric(16, 4),
  last_scraped_time timestamptz,
  delete_reason text,
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
-- Serves the catalog's default order (type, name) and the loose index scan behind config_types.
create index config_items_type_name_idx on config_items (type, name);
create index config_items_config_class_idx on config_items (config_class);
create index config_items_name_idx on config_items (name);
create index config_items_status_idx on config_items (status) where status is not null;
create index config_items_health_idx on config_items (health);
create index config_items_created_at_idx on config_items (created_at desc);
create index config_items_scraper_idx on config_items (scraper_id) where scraper_id is not null;
create index config_items_agent_idx on config_items (agent_id) where agent_id is not null and deleted_at is null;
create index config_items_parent_idx on config_items (parent_id) where parent_id is not null;
create index config_items_external_id_idx on config_items using gin (external_id);
-- jsonb_path_ops serves the containment filters (tags=cs.{...}, labels=cs.{...}) at a third of the default size.
create index config_items_tags_idx on config_items using gin (tags jsonb_path_ops);
create index config_items_labels_idx on config_items using gin (labels jsonb_path_ops);
create trigger config_items_updated_at before update on config_items for each row execute function set_updated_at();

create or replace function config_items_derive() returns trigger language plpgsql as $$
begin
  new.config_class := split_part(new.type, '::', 1);
  if new.parent_id is null then
    new.path := '';
  elsif tg_op = 'INSERT' or new.parent_id is distinct from old.parent_id then
    select case when p.path = '' then p.id::text else p.path || '.' || p.id::text end
      into new.path
      from config_items p
     where p.id = new.parent_id;
  end if;
  return new;
end;
$$;
create trigger config_items_derive before insert or update of type, parent_id, config_class, path on config_items
  for each row execute function config_items_derive();

-- Moving an item moves its subtree: the descendants' paths start with the item's old full path.
create or replace function config_items_move_subtree() returns trigger language plpgsql as $$
declare
  old_full text := case when old.path = '' then old.id::text else old.path || '.' || old.id::text end;
  new_full text := case when new.path = '' then new.id::text else new.path || '.' || new.id::text end;
begin
  update config_items c
     set path = new_full || substr(c.path, length(old_full) + 1)
   where c.path = old_full or c.path like old_full || '.%';
  return null;
end;
$$;
create trigger config_items_move_subtree after update of parent_id on config_items
  for each row when (old.parent_id is distinct from new.parent_id) execute function config_items_move_subtree();
create index config_items_path_idx on config_items (path text_pattern_ops) where path <> '';

-- Distinct tag and label values, so the catalog's filter dropdowns read a small table instead of unnesting the jsonb of
-- every item. Rows are only ever added; config_tags and config_labels hide values no item carries any more.
create table config_tag_values (
  kind text not null check (kind in ('tag', 'label')),
  key text not null,
  value text not null,
  primary key (kind, key, value)
);

create or replace function config_tag_values_collect() returns trigger language plpgsql as $$
begin
  insert into config_tag_values (kind, key, value)
  select distinct 'tag', t.key, t.value from changed, jsonb_each_text(changed.tags) t
   where jsonb_typeof(changed.tags) = 'object'
  union
  select distinct 'label', l.key, l.value from changed, jsonb_each_text(changed.labels) l
   where jsonb_typeof(changed.labels) = 'object'
  on conflict do nothing;
  return null;
end;
$$;
-- Statement-level with transition tables: a scraper's bulk upsert costs one pass, not one per row. A trigger with a
-- transition table may name only one event, hence two triggers.
create trigger config_items_tag_values_insert after insert on config_items
  referencing new table as changed for each statement execute function config_tag_values_collect();
create trigger config_items_tag_values_update after update on config_items
  referencing new table as changed for each statement execute function config_tag_values_collect();

create table config_changes (
  id uuid primary key default gen_random_uuid(),
  config_id uuid not null references config_items (id) on delete cascade,
  external_change_id text,
  change_type text not null,
  severity text check (severity in ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  source text,
  summary text,
  diff text,
  details jsonb,
  patches text,
  -- Identical repeated changes fold into one row: the writer finds the row by (config_id, fingerprint), bumps count
  -- and created_at, and first_observed keeps the first sighting.
  fingerprint text,
  count integer not null default 1,
  first_observed timestamptz not null default now(),
  created_by uuid references people (id),
  external_created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index config_changes_config_created_idx on config_changes (config_id, created_at desc);
create index config_changes_created_at_idx on config_changes (created_at desc);
-- Also serves the loose index scan behind change_types.
create index config_changes_change_type_idx on config_changes (change_type, created_at desc);
create index config_changes_fingerprint_idx on config_changes (config_id, fingerprint) where fingerprint is not null;
create unique index config_changes_external_change_id_key on config_changes (config_id, external_change_id)
  where external_change_id is not null;
create trigger config_changes_updated_at before update on config_changes for each row execute function set_updated_at();

create table config_analysis (
  id uuid primary key default gen_random_uuid(),
  config_id uuid not null references config_items (id) on delete cascade,
  scraper_id uuid references config_scrapers (id) on delete set null,
  analyzer text not null,
  analysis_type text not null check (analysis_type in (
    'cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technical_debt', 'reliability',
    'recommendation', 'other')),
  severity text check (severity in ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  status text not null default 'open' check (status in ('open', 'resolved', 'silenced')),
  summary text,
  message text,
  analysis jsonb,
  source text,
  first_observed timestamptz not null default now(),
  last_observed timestamptz not null default now(),
  created_by uuid references people (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- One finding per analyzer and item: analyzers upsert on it and move last_observed.
  constraint config_analysis_config_id_analyzer_key unique (config_id, analyzer)
);
create index config_analysis_first_observed_idx on config_analysis (first_observed desc);
-- Also serves the loose index scan behind config_analysis_analyzers.
create index config_analysis_analyzer_idx on config_analysis (analyzer);
create index config_analysis_status_idx on config_analysis (status, first_observed desc);
create trigger config_analysis_updated_at before update on config_analysis for each row execute function set_updated_at();

-- Soft relationships between items; the hard ones are the parent_id tree of config_items.
create table config_relationships (
  config_id uuid not null references config_items (id) on delete cascade,
  related_id uuid not null references config_items (id) on delete cascade,
  relation text not null default '',
  -- The selector that produced the link; 'manual' marks a link a user made (and may remove).
  selector_id text not null default 'manual',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint config_relationships_pkey primary key (config_id, related_id, selector_id),
  constraint config_relationships_not_self check (config_id <> related_id)
);
create index config_relationships_related_idx on config_relationships (related_id, config_id);
create trigger config_relationships_updated_at before update on config_relationships
  for each row execute function set_updated_at();
