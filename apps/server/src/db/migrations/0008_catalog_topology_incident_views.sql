-- Current definitions: views/100_configs.sql, views/130_config_detail.sql, views/140_config_analysis_items.sql,
-- views/150_analysis_by_component.sql, views/160_changes_by_component.sql, views/170_related_configs_recursive.sql,
-- views/210_check_summary_for_config.sql, views/300_components_with_logs.sql (applied after the numbered migrations,
-- ADR 0064). What this file defines of them is history a fresh database replays: change them there.
-- Read models the catalog, topology, health and incident screens call by name (spec 000 §7, 001 §7, 002 §7).
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Every view here is either a plain projection or join that filters push through, or a correlated subquery evaluated
-- per output row, or a loose index scan (a recursive CTE hopping from one distinct key to the next through an index),
-- so none of them reads a whole large table to answer a filtered or paged request. The only full scans are over
-- tables that stay small (components for component_labels).

-- Catalog ---------------------------------------------------------------------------------------------------------

-- Config items without their content; changes and analysis are computed only for the rows a page returns.
create view configs as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
       c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select count(*)::integer from config_changes ch
         where ch.config_id = c.id and ch.created_at > now() - interval '30 days') as changes,
       (select coalesce(jsonb_object_agg(a.analysis_type, a.n), '{}'::jsonb)
          from (select ca.analysis_type, count(*) as n from config_analysis ca
                 where ca.config_id = c.id and ca.status = 'open' group by ca.analysis_type) a) as analysis
  from config_items c;

-- One config item with its content and the counts behind the detail page's tab badges; meant for id=eq.{id}.
create view config_detail as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.properties, c.config, c.format, c.source,
       c.cost_per_minute, c.cost_total_1d, c.cost_total_7d, c.cost_total_30d, c.last_scraped_time, c.delete_reason,
       c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select count(*)::integer from config_changes ch where ch.config_id = c.id) as changes,
       (select count(*)::integer from config_analysis ca where ca.config_id = c.id) as analysis,
       (select count(*)::integer from config_relationships r
         where (r.config_id = c.id or r.related_id = c.id) and r.deleted_at is null) as relationships,
       (select count(*)::integer from playbook_runs pr where pr.config_id = c.id) as playbook_runs,
       (select count(*)::integer from check_config_relationships cc
         where cc.config_id = c.id and cc.deleted_at is null) as checks
  from config_items c;

create view config_names as
select c.id, c.name, c.type, c.config_class, c.agent_id, c.deleted_at
  from config_items c;

create view config_tags as
select v.key, v.value
  from config_tag_values v
 where v.kind = 'tag'
   and exists (select 1 from config_items c
                where c.tags @> jsonb_build_object(v.key, v.value) and c.deleted_at is null);

create view config_labels as
select v.key, v.value
  from config_tag_values v
 where v.kind = 'label'
   and exists (select 1 from config_items c
                where c.labels @> jsonb_build_object(v.key, v.value) and c.deleted_at is null);

create view config_types as
with recursive t (type) as (
  (select c.type from config_items c where c.deleted_at is null order by c.type limit 1)
  union all
  select (select c.type from config_items c where c.type > t.type and c.deleted_at is null order by c.type limit 1)
    from t
   where t.type is not null
)
select t.type, split_part(t.type, '::', 1) as config_class from t where t.type is not null;

create view config_statuses as
with recursive t (status) as (
  (select c.status from config_items c where c.status is not null order by c.status limit 1)
  union all
  select (select c.status from config_items c where c.status > t.status order by c.status limit 1)
    from t
   where t.status is not null
)
select t.status from t where t.status is not null;

create view config_analysis_analyzers as
with recursive t (analyzer) as (
  (select a.analyzer from config_analysis a order by a.analyzer limit 1)
  union all
  select (select a.analyzer from config_analysis a where a.analyzer > t.analyzer order by a.analyzer limit 1)
    from t
   where t.analyzer is not null
)
select t.analyzer from t where t.analyzer is not null;

create view change_types as
with recursive t (change_type) as (
  (select ch.change_type from config_changes ch order by ch.change_type limit 1)
  union all
  select (select ch.change_type from config_changes ch where ch.change_type > t.change_type
           order by ch.change_type limit 1)
    from t
   where t.change_type is not null
)
select t.change_type from t where t.change_type is not null;

-- Insights with the item they are about; filtering by component goes through analysis_by_component.
create view config_analysis_items as
select a.id, a.config_id, a.scraper_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, a.created_by, a.created_at, a.updated_at,
       c.name as config_name, c.type as config_type, c.config_class, c.deleted_at as config_deleted_at
  from config_analysis a
  join config_items c on c.id = a.config_id;

create view analysis_by_component as
select l.component_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, c.name as config_name, c.type as config_type, c.config_class
  from config_component_relationships l
  join config_analysis a on a.config_id = l.config_id
  join config_items c on c.id = a.config_id
 where l.deleted_at is null;

create view changes_by_component as
select l.component_id, ch.id, ch.config_id, ch.change_type, ch.severity, ch.source, ch.summary, ch.count,
       ch.first_observed, ch.created_by, ch.external_created_by, ch.created_at,
       c.name as config_name, c.type as config_type, c.config_class
  from config_component_relationships l
  join config_changes ch on ch.config_id = l.config_id
  join config_items c on c.id = ch.config_id
 where l.deleted_at is null;

-- Health --------------------------------------------------------------------------------------------------------------

-- Uptime and latency over the last 24 hours, from the hourly rollup.
create view check_summary_for_config as
select l.config_id, k.id, k.canary_id, k.agent_id, k.type, k.name, k.namespace, k.description, k.icon, k.endpoint,
       k.labels, k.status, k.severity, k.last_runtime, k.next_runtime, k.last_transition_time, k.created_at,
       k.updated_at, k.deleted_at,
       (select jsonb_build_object('passed', coalesce(sum(r.passed), 0), 'failed', coalesce(sum(r.failed), 0))
          from check_statuses_1h r where r.check_id = k.id and r.bucket >= now() - interval '24 hours') as uptime,
       (select jsonb_build_object(
                 'p95', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.95, max(r.duration_max)),
                 'p97', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.97, max(r.duration_max)),
                 'p99', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.99, max(r.duration_max)))
          from check_statuses_1h r where r.check_id = k.id and r.bucket >= now() - interval '24 hours') as latency
  from check_config_relationships l
  join checks k on k.id = l.check_id
 where l.deleted_at is null and k.deleted_at is null;

create view checks_by_component as
select l.component_id, k.id, k.canary_id, k.agent_id, k.type, k.name, k.namespace, k.description, k.icon, k.endpoint,
       k.labels, k.status, k.severity, k.last_runtime, k.next_runtime, k.last_transition_time, k.created_at,
       k.updated_at, k.deleted_at
  from check_component_relationships l
  join checks k on k.id = l.check_id
 where l.deleted_at is null and k.deleted_at is null;

-- Topology ------------------------------------------------------------------------------------------------------------

create view component_names as
select c.id, c.name, c.text, c.type, c.icon, c.status, c.topology_id, c.parent_id, c.path, c.external_id, c.agent_id
  from components c
 where c.deleted_at is null;

create view components_with_logs as
select c.id, c.name, c.text, c.type, c.icon, c.topology_id, c.agent_id, c.log_selectors
  from components c
 where c.deleted_at is null and c.log_selectors is not null;

create view component_labels as
select distinct l.key, l.value
  from components c, jsonb_each_text(c.labels) l
 where c.deleted_at is null and jsonb_typeof(c.labels) = 'object';

-- Incidents -----------------------------------------------------------------------------------------------------------

create view incident_summary as
select i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_by, i.commander_id, i.communicator_id,
       i.created_at, i.updated_at,
       (select jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar)
          from people p where p.id = i.commander_id) as commander,
       (select coalesce(jsonb_agg(jsonb_build_object(
                 'id', r.id, 'type', r.type, 'person_id', r.person_id, 'team_id', r.team_id,
                 'name', coalesce(p.name, t.name), 'avatar', p.avatar, 'icon', t.icon) order by r.created_at), '[]'::jsonb)
          from responders r
          left join people p on p.id = r.person_id
          left join teams t on t.id = r.team_id
         where r.incident_id = i.id and r.deleted_at is null) as responders,
       (select count(*)::integer from comments cm where cm.incident_id = i.id) as comments
  from incidents i;

-- An incident is about a component or config when evidence of one of its hypotheses points at it.
create view incidents_by_component as
select distinct e.component_id, i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_by,
       i.commander_id, i.created_at, i.updated_at
  from evidences e
  join hypotheses h on h.id = e.hypothesis_id
  join incidents i on i.id = h.incident_id
 where e.component_id is not null;

create view incidents_by_config as
select distinct e.config_id, i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_by,
       i.commander_id, i.created_at, i.updated_at
  from evidences e
  join hypotheses h on h.id = e.hypothesis_id
  join incidents i on i.id = h.incident_id
 where e.config_id is not null;

-- Related configs -----------------------------------------------------------------------------------------------------

create type related_config as (
  id uuid,
  name text,
  type text,
  config_class text,
  status text,
  health text,
  description text,
  tags jsonb,
  labels jsonb,
  agent_id uuid,
  created_at timestamptz,
  updated_at timestamptz,
  deleted_at timestamptz,
  -- The items one step closer to the start that lead here.
  related_ids uuid[],
  direction text,
  depth integer,
  relation text
);

-- Walks the relationship graph from one item, breadth first, one direction at a time: outgoing follows links from an
-- item to its related items and from a parent to its children; incoming follows them backwards. Hard relations are
-- the parent tree; 'both' adds the soft ones of config_relationships. Each item is reported once per direction, at the
-- depth where it is first reached, so the cost grows with the edges visited, never with the paths. The type, status
-- and health filters select what is reported, not what is walked through.
create or replace function related_configs_recursive(
  config_id uuid,
  include_deleted_configs boolean default false,
  max_depth integer default 10,
  type text[] default null,
  status text[] default null,
  health text[] default null,
  type_filter text default 'outgoing',
  incoming_relation text default 'both',
  outgoing_relation text default 'both'
) returns setof related_config language plpgsql stable as $$
#variable_conflict use_column
declare
  start_id uuid := related_configs_recursive.config_id;
  with_deleted boolean := coalesce(related_configs_recursive.include_deleted_configs, false);
  type_list text[] := related_configs_recursive.type;
  status_list text[] := related_configs_recursive.status;
  health_list text[] := related_configs_recursive.health;
  directions text[];
  dir text;
  soft boolean;
  frontier uuid[];
  seen uuid[];
  level integer;
  step_from uuid[];
  step_to uuid[];
  step_relation text[];
begin
  if related_configs_recursive.type_filter not in ('outgoing', 'incoming', 'all') then
    raise exception 'type_filter must be outgoing, incoming or all' using errcode = '22023';
  end if;
  directions := case related_configs_recursive.type_filter
                  when 'all' then array['outgoing', 'incoming']
                  else array[related_configs_recursive.type_filter] end;
  foreach dir in array directions loop
    soft := case dir when 'outgoing' then related_configs_recursive.outgoing_relation
                     else related_configs_recursive.incoming_relation end <> 'hard';
    frontier := array[start_id];
    seen := array[start_id];
    level := 0;
    while level < coalesce(related_configs_recursive.max_depth, 10) and cardinality(frontier) > 0 loop
      level := level + 1;
      select coalesce(array_agg(e.from_id), '{}'), coalesce(array_agg(e.to_id), '{}'),
             coalesce(array_agg(e.relation), '{}')
        into step_from, step_to, step_relation
        from (
          select r.config_id as from_id, r.related_id as to_id, r.relation
            from config_relationships r
           where dir = 'outgoing' and soft and r.config_id = any(frontier) and r.deleted_at is null
          union all
          select r.related_id, r.config_id, r.relation
            from config_relationships r
           where dir = 'incoming' and soft and r.related_id = any(frontier) and r.deleted_at is null
          union all
          select ch.parent_id, ch.id, 'child'
            from config_items ch
           where dir = 'outgoing' and ch.parent_id = any(frontier)
          union all
          select ch.id, ch.parent_id, 'parent'
            from config_items ch
           where dir = 'incoming' and ch.id = any(frontier) and ch.parent_id is not null
        ) e
        join config_items target on target.id = e.to_id
       where e.to_id <> all(seen) and (with_deleted or target.deleted_at is null);

      frontier := array(select distinct s.id from unnest(step_to) s(id));
      seen := seen || frontier;

      return query
      select c.id, c.name, c.type, c.config_class, c.status, c.health, c.description, c.tags, c.labels, c.agent_id,
             c.created_at, c.updated_at, c.deleted_at, s.related_ids, dir, level, s.relation
        from (select u.to_id, array_agg(distinct u.from_id) as related_ids, min(u.relation) as relation
                from unnest(step_from, step_to, step_relation) u(from_id, to_id, relation)
               group by u.to_id) s
        join config_items c on c.id = s.to_id
       where (type_list is null or c.type = any(type_list))
         and (status_list is null or c.status = any(status_list))
         and (health_list is null or c.health = any(health_list));
    end loop;
  end loop;
end;
$$;
