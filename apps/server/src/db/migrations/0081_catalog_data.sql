-- Current definitions: views/130_config_detail.sql, views/140_config_analysis_items.sql,
-- views/150_analysis_by_component.sql, views/160_changes_by_component.sql, views/170_related_configs_recursive.sql,
-- views/210_check_summary_for_config.sql (applied after the numbered migrations, ADR 0064). What this file defines of
-- them is history a fresh database replays: change them there.
-- Catalog data through /api/db (spec 002 §7 "Catalog data"): the fixes the audit of 0008's catalog views found.
-- PostgreSQL 15 syntax: it also runs on PGlite. Every view keeps its columns in place and only appends, so
-- `create or replace` suffices and nothing that depends on them has to be rebuilt.

-- A config and a component, or a config and a check, may be linked by several selectors (a scraper's and a manual
-- one); the views below see each pair once, or every finding, change and check of such a config would be listed twice.

-- The tab badges of the detail page. relationships counts the items one step away in either direction, through the
-- parent tree and the soft links alike, leaving out deleted ones: what the Relationships tab lists at depth 1.
-- checks counts the checks check_summary_for_config lists.
create or replace view config_detail as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.properties, c.config, c.format, c.source,
       c.cost_per_minute, c.cost_total_1d, c.cost_total_7d, c.cost_total_30d, c.last_scraped_time, c.delete_reason,
       c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select count(*)::integer from config_changes ch where ch.config_id = c.id) as changes,
       (select count(*)::integer from config_analysis ca where ca.config_id = c.id) as analysis,
       (select count(*)::integer
          from (select r.related_id as id from config_relationships r where r.config_id = c.id and r.deleted_at is null
                union
                select r.config_id from config_relationships r where r.related_id = c.id and r.deleted_at is null
                union
                select ch.id from config_items ch where ch.parent_id = c.id
                union
                select c.parent_id where c.parent_id is not null) n
          join config_items t on t.id = n.id
         where t.deleted_at is null) as relationships,
       (select count(*)::integer from playbook_runs pr where pr.config_id = c.id) as playbook_runs,
       (select count(distinct cc.check_id)::integer
          from check_config_relationships cc
          join checks k on k.id = cc.check_id
         where cc.config_id = c.id and cc.deleted_at is null and k.deleted_at is null) as checks
  from config_items c;

-- Insights with the item they are about. The insights screens order by first_observed desc: a view cannot carry an
-- order, so the client sends order=first_observed.desc (config_analysis_first_observed_idx serves it). A component
-- filter reads analysis_by_component, which has these columns and component_id.
create or replace view config_analysis_items as
select a.id, a.config_id, a.scraper_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, a.created_by, a.created_at, a.updated_at,
       c.name as config_name, c.type as config_type, c.config_class, c.deleted_at as config_deleted_at,
       a.analysis
  from config_analysis a
  join config_items c on c.id = a.config_id;

create or replace view analysis_by_component as
select l.component_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, c.name as config_name, c.type as config_type, c.config_class,
       a.scraper_id, a.created_by, a.created_at, a.updated_at, c.deleted_at as config_deleted_at, a.analysis
  from (select distinct r.component_id, r.config_id from config_component_relationships r where r.deleted_at is null) l
  join config_analysis a on a.config_id = l.config_id
  join config_items c on c.id = a.config_id;

create or replace view changes_by_component as
select l.component_id, ch.id, ch.config_id, ch.change_type, ch.severity, ch.source, ch.summary, ch.count,
       ch.first_observed, ch.created_by, ch.external_created_by, ch.created_at,
       c.name as config_name, c.type as config_type, c.config_class,
       c.tags, c.deleted_at as config_deleted_at
  from (select distinct r.component_id, r.config_id from config_component_relationships r where r.deleted_at is null) l
  join config_changes ch on ch.config_id = l.config_id
  join config_items c on c.id = ch.config_id;

create or replace view check_summary_for_config as
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
  from (select distinct r.config_id, r.check_id from check_config_relationships r where r.deleted_at is null) l
  join checks k on k.id = l.check_id
 where k.deleted_at is null;

-- Links people make are 'manual'; the others belong to the scraper or topology that found them and come back on its
-- next run, so a person may neither remove nor change them, nor pass a link off as one. The data API marks its
-- transactions with the caller in opsdeck.person_id (as 0069's exec guards rely on); the server's own writers carry
-- no person and pass, and so do the cascades of deleting a config item or a component (their triggers run nested).
-- P0001 answers 400 with this message (docs/query-grammar.md, Errors).
create or replace function guard_manual_links() returns trigger language plpgsql as $$
declare
  person text := nullif(current_setting('opsdeck.person_id', true), '');
begin
  if person is null or pg_trigger_depth() > 1 then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.selector_id <> 'manual' then
    raise exception using
      errcode = 'P0001',
      message = 'Only links created by a user can be removed or changed',
      detail = format('The link was made by selector %s', old.selector_id),
      hint = 'When the pair is also linked by hand, add selector_id=eq.manual to the filter to remove that link alone';
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.selector_id <> 'manual' then
    raise exception using
      errcode = 'P0001',
      message = 'A link created by a user must have selector_id manual',
      detail = format('selector_id was %s', new.selector_id);
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger config_component_relationships_guard_manual
  before insert or update or delete on config_component_relationships
  for each row execute function guard_manual_links();

create trigger config_relationships_guard_manual
  before insert or update or delete on config_relationships
  for each row execute function guard_manual_links();

-- One step of the relationship graph from config_id: outgoing to the items it links to and to its children, incoming
-- from the items linking to it and from its parent. Its row is also the row of related_configs_recursive: the data
-- API reads a function returning a view's rows like the view (select, filters, order, paging), which it cannot do for
-- 0008's bare composite type, so that type gives way to this view.
create view related_configs as
select c.id, c.name, c.type, c.config_class, c.status, c.health, c.description, c.tags, c.labels, c.agent_id,
       c.created_at, c.updated_at, c.deleted_at, array[e.from_id] as related_ids, e.direction, 1 as depth, e.relation,
       e.from_id as config_id
  from (select r.config_id as from_id, r.related_id as to_id, 'outgoing'::text as direction, r.relation
          from config_relationships r where r.deleted_at is null
        union all
        select r.related_id, r.config_id, 'incoming'::text, r.relation
          from config_relationships r where r.deleted_at is null
        union all
        select ch.parent_id, ch.id, 'outgoing'::text, 'child'::text from config_items ch where ch.parent_id is not null
        union all
        select ch.id, ch.parent_id, 'incoming'::text, 'parent'::text from config_items ch where ch.parent_id is not null) e
  join config_items c on c.id = e.to_id;

-- The walk is 0008's; it now returns related_configs rows, config_id being where the walk started. Arguments: max_depth
-- defaults to 10 and is capped at 10 (a larger value walks 10 steps; a negative one is refused); a null type_filter or
-- relation means its default; a relation other than 'hard' or 'both' is refused rather than read as 'both'. Refusals
-- are 22023, a 400.
drop function related_configs_recursive(uuid, boolean, integer, text[], text[], text[], text, text, text);
drop type related_config;

create function related_configs_recursive(
  config_id uuid,
  include_deleted_configs boolean default false,
  max_depth integer default 10,
  type text[] default null,
  status text[] default null,
  health text[] default null,
  type_filter text default 'outgoing',
  incoming_relation text default 'both',
  outgoing_relation text default 'both'
) returns setof related_configs language plpgsql stable as $$
#variable_conflict use_column
declare
  start_id uuid := related_configs_recursive.config_id;
  with_deleted boolean := coalesce(related_configs_recursive.include_deleted_configs, false);
  depth_limit integer := least(coalesce(related_configs_recursive.max_depth, 10), 10);
  type_list text[] := related_configs_recursive.type;
  status_list text[] := related_configs_recursive.status;
  health_list text[] := related_configs_recursive.health;
  walk text := coalesce(related_configs_recursive.type_filter, 'outgoing');
  incoming text := coalesce(related_configs_recursive.incoming_relation, 'both');
  outgoing text := coalesce(related_configs_recursive.outgoing_relation, 'both');
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
  if walk not in ('outgoing', 'incoming', 'all') then
    raise exception 'type_filter must be outgoing, incoming or all' using errcode = '22023';
  end if;
  if incoming not in ('hard', 'both') or outgoing not in ('hard', 'both') then
    raise exception 'incoming_relation and outgoing_relation must be hard or both' using errcode = '22023';
  end if;
  if depth_limit < 0 then
    raise exception 'max_depth must not be negative' using errcode = '22023', hint = 'Values above 10 walk 10 steps';
  end if;
  directions := case walk when 'all' then array['outgoing', 'incoming'] else array[walk] end;
  foreach dir in array directions loop
    soft := case dir when 'outgoing' then outgoing else incoming end = 'both';
    frontier := array[start_id];
    seen := array[start_id];
    level := 0;
    while level < depth_limit and cardinality(frontier) > 0 loop
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
       where e.to_id not in (select s.id from unnest(seen) s(id)) and (with_deleted or target.deleted_at is null);

      frontier := array(select distinct s.id from unnest(step_to) s(id));
      seen := seen || frontier;

      return query
      select c.id, c.name, c.type, c.config_class, c.status, c.health, c.description, c.tags, c.labels, c.agent_id,
             c.created_at, c.updated_at, c.deleted_at, s.related_ids, dir, level, s.relation, start_id
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
