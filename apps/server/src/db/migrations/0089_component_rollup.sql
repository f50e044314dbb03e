-- Component health and summaries (issue #13 item 2), kept current by the database when an input changes so that
-- nothing is computed on read. PostgreSQL 15 syntax: it also runs on PGlite.
--
-- A component's status is the worst (unhealthy > warning > healthy > unknown) of its own live checks, its own live
-- configs and its live children; its summary counts checks, open incidents and open insights over the component and
-- everything under it, by adding its children's summaries to its own counts. Adding summaries means a check linked to
-- a component and to one of its ancestors counts twice at the ancestor; the alternative, counting distinct rows over
-- the subtree, would read the whole topology on every check flip at the root.
--
-- Hidden components count like any other: hiding is how the page draws a component, and an unhealthy component must
-- not make its parent look healthy because nobody wants to see its card.
--
-- Every write is synchronous: an input trigger refreshes the components the changed rows belong to, and a refresh that
-- changes a component fires the trigger on components, which refreshes its parent. A refresh writes a row only when its
-- status, reason or summary moved, so the climb stops at the first ancestor that does not change, and inputs that did
-- not change write nothing. Input triggers are statement-level with transition tables: a scraper's batch of hundreds of
-- rows costs one join per statement. PostgreSQL allows a transition table only on a trigger with one event and no
-- column list, hence one trigger per event.
--
-- While a topology run writes its tree it sets opsdeck.topology_build to 'on' for its transaction: every trigger here
-- stands aside, and the run calls topology_refresh_tree once at the end.

-- A component's live children, the rollup's most frequent read: with only the partial index on every live component
-- (0088) matching `deleted_at is null`, a planner misled by stale statistics ANDed it with the parent index and read the
-- whole topology for each component.
create index components_live_parent_idx on components (parent_id) where deleted_at is null;

create or replace function topology_rollup_paused() returns boolean language sql stable as $$
  select coalesce(current_setting('opsdeck.topology_build', true), '') = 'on'
$$;

-- COMPONENT_STATUS_RANK of packages/shared/src/topology.ts.
create or replace function component_status_rank(status text) returns integer language sql immutable parallel safe as $$
  select case status when 'unhealthy' then 3 when 'warning' then 2 when 'healthy' then 1 else 0 end
$$;

-- summary is a column anyone with the topologies permission may write through the data API, so what a child holds is
-- read defensively: a section or count of the wrong JSON type counts as nothing, and counts stay numeric, rather than
-- failing the check flip that climbs through it.
create or replace function component_summary_check_count(summary jsonb, status text) returns numeric
  language sql immutable parallel safe as $$
  select case when jsonb_typeof(summary -> 'checks' -> status) = 'number'
              then floor((summary -> 'checks' ->> status)::numeric) else 0 end
$$;

-- The {<type>: {<severity>: n}} section of a summary as rows.
create or replace function component_summary_entries(summary jsonb, section text)
  returns table (kind text, severity text, n numeric) language sql immutable parallel safe as $$
  select t.key, s.key, floor((s.value #>> '{}')::numeric)
    from jsonb_each(case when jsonb_typeof(summary -> section) = 'object' then summary -> section else '{}'::jsonb end) t,
         jsonb_each(case when jsonb_typeof(t.value) = 'object' then t.value else '{}'::jsonb end) s
   where jsonb_typeof(s.value) = 'number'
$$;

-- What one component's status, reason and summary should be, from its own inputs and its children as stored now.
-- Incidents count while not resolved or closed (packages/shared/src/incidents.ts); a severity left empty counts under
-- 'unknown'. One component at a time: every input is an index probe by component, and a set-wide version joined its
-- per-component parts without statistics, which the planner turned into nested loops over thousands of rows. PL/pgSQL
-- rather than SQL so that the plan is kept across calls (a SQL function's is made again on every call before PG 18).
create or replace function component_rollup(p_id uuid)
  returns table (status text, status_reason text, summary jsonb) language plpgsql stable as $$
#variable_conflict use_column
begin
  return query
  -- The links are read first, by the component, whatever the statistics say: with stale ones (a table that was tiny
  -- when last analyzed) the planner would otherwise walk every check for each of thousands of components.
  with check_links as materialized (
    select l.check_id from check_component_relationships l where l.component_id = p_id and l.deleted_at is null
  ), config_links as materialized (
    select l.config_id from config_component_relationships l where l.component_id = p_id and l.deleted_at is null
  ), own_checks as (
    select distinct k.id, coalesce(k.status, 'unknown') as status, concat_ws('/', cn.name, k.name) as label
      from check_links l
      join checks k on k.id = l.check_id and k.deleted_at is null
      left join canaries cn on cn.id = k.canary_id
  ), own_configs as (
    select distinct ci.id, coalesce(ci.health, 'unknown') as status, ci.name as label
      from config_links l
      join config_items ci on ci.id = l.config_id and ci.deleted_at is null
  ), children as (
    select k.name, k.status, k.status_reason, k.summary
      from components k
     where k.parent_id = p_id and k.deleted_at is null
  ), contributions as (
    select 1 as kind, status, format('check %s is %s', label, status) as reason from own_checks
    union all
    select 2, status, format('config %s is %s', label, status) from own_configs
    union all
    select 3, status,
           case when coalesce(status_reason, '') = '' then format('%s is %s', name, status)
                else format('%s: %s', name, status_reason) end
      from children
  ), worst as (
    select coalesce(max(component_status_rank(status)), 0) as rank from contributions
  ), blamed as (
    select c.kind, count(*) as n, min(c.reason) as reason, min(c.status) as status
      from contributions c, worst w
     where w.rank >= component_status_rank('warning') and component_status_rank(c.status) = w.rank
     group by c.kind
  ), reason as (
    -- One culprit names itself; several are counted by kind: '2 checks unhealthy', '1 check and 2 components warning'.
    select case when b.total = 1 then b.single
                when cardinality(b.parts) = 1 then b.parts[1] || ' ' || b.status
                else array_to_string(b.parts[1:cardinality(b.parts) - 1], ', ') || ' and ' || b.parts[cardinality(b.parts)]
                     || ' ' || b.status end as text
      from (select sum(n) as total, min(reason) as single, min(status) as status,
                   array_agg(format('%s %s%s', n, case kind when 1 then 'check' when 2 then 'config' else 'component' end,
                                    case when n > 1 then 's' else '' end) order by kind) as parts
              from blamed) b
  ), check_counts as (
    select coalesce(sum(healthy), 0) as healthy, coalesce(sum(unhealthy), 0) as unhealthy,
           coalesce(sum(warning), 0) as warning, coalesce(sum(unknown), 0) as unknown
      from (select count(*) filter (where status = 'healthy') as healthy,
                   count(*) filter (where status = 'unhealthy') as unhealthy,
                   count(*) filter (where status = 'warning') as warning,
                   count(*) filter (where status not in ('healthy', 'unhealthy', 'warning')) as unknown
              from own_checks
            union all
            select component_summary_check_count(summary, 'healthy'), component_summary_check_count(summary, 'unhealthy'),
                   component_summary_check_count(summary, 'warning'), component_summary_check_count(summary, 'unknown')
              from children) s
  ), incident_counts as (
    select i.type as kind, coalesce(i.severity, 'unknown') as severity, count(distinct i.id) as n
      from evidences e
      join hypotheses h on h.id = e.hypothesis_id
      join incidents i on i.id = h.incident_id
     where e.component_id = p_id and i.status not in ('resolved', 'closed')
     group by 1, 2
    union all
    select x.kind, x.severity, x.n from children ch, component_summary_entries(ch.summary, 'incidents') x
  ), insight_counts as (
    select a.analysis_type as kind, coalesce(a.severity, 'unknown') as severity, count(distinct a.id) as n
      from config_links l
      join config_items ci on ci.id = l.config_id and ci.deleted_at is null
      join config_analysis a on a.config_id = l.config_id and a.status = 'open'
     group by 1, 2
    union all
    select x.kind, x.severity, x.n from children ch, component_summary_entries(ch.summary, 'insights') x
  ), incident_map as (
    select coalesce(jsonb_object_agg(kind, severities), '{}'::jsonb) as counts
      from (select kind, jsonb_object_agg(severity, n) as severities
              from (select kind, severity, sum(n) as n from incident_counts group by 1, 2 having sum(n) > 0) per_severity
             group by 1) per_kind
  ), insight_map as (
    select coalesce(jsonb_object_agg(kind, severities), '{}'::jsonb) as counts
      from (select kind, jsonb_object_agg(severity, n) as severities
              from (select kind, severity, sum(n) as n from insight_counts group by 1, 2 having sum(n) > 0) per_severity
             group by 1) per_kind
  )
  select case w.rank when 3 then 'unhealthy' when 2 then 'warning' when 1 then 'healthy' else 'unknown' end,
         r.text,
         jsonb_build_object(
           'checks', jsonb_build_object('healthy', cc.healthy, 'unhealthy', cc.unhealthy, 'warning', cc.warning,
                                        'unknown', cc.unknown),
           'incidents', im.counts,
           'insights', nm.counts)
    from worst w, reason r, check_counts cc, incident_map im, insight_map nm;
end;
$$;

-- Recomputes the given live components and writes those whose status, reason or summary moved. Refreshing a component
-- and its parent together is fine: the child's change refreshes the parent again. Null (a trigger that found nothing to
-- refresh) does nothing.
create or replace function topology_refresh_components(p_ids uuid[]) returns void language plpgsql as $$
begin
  if p_ids is null then
    return;
  end if;
  update components c
     set status = x.status, status_reason = x.status_reason, summary = x.summary
    from components t
    cross join lateral component_rollup(t.id) x
   where t.id = any(p_ids) and t.deleted_at is null and c.id = t.id
     and (c.status, c.status_reason, c.summary) is distinct from (x.status, x.status_reason, x.summary);
end;
$$;

create or replace function topology_refresh_component(p_id uuid) returns void language plpgsql as $$
begin
  perform topology_refresh_components(array[p_id]);
end;
$$;

-- Recomputes every live component of a topology, deepest first, one statement per depth: each level reads the level
-- under it already final, so one pass suffices. The triggers stand aside meanwhile (their climbs would redo the levels
-- above over and over); the setting is put back as it was, since a topology run calls this with it on.
create or replace function topology_refresh_tree(p_topology_id uuid) returns void language plpgsql as $$
declare
  previous text := current_setting('opsdeck.topology_build', true);
  level_ids uuid[];
begin
  perform set_config('opsdeck.topology_build', 'on', true);
  for level_ids in
    select array_agg(c.id)
      from components c
     where c.topology_id = p_topology_id and c.deleted_at is null
     group by case when c.path = '' then 0 else 1 + length(c.path) - length(replace(c.path, '.', '')) end
     order by case when c.path = '' then 0 else 1 + length(c.path) - length(replace(c.path, '.', '')) end desc
  loop
    perform topology_refresh_components(level_ids);
  end loop;
  perform set_config('opsdeck.topology_build', coalesce(previous, ''), true);
end;
$$;

-- The climb. A component that moved, changed or went away refreshes its parent (and its old parent when it moved); one
-- that came back refreshes itself, since its inputs may have changed while it was deleted. A name counts as a change
-- because the parent's reason names the child. An update of no row ends the climb with nothing to refresh.
create or replace function components_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(distinct n.parent_id) into ids from new_rows n where n.parent_id is not null and n.deleted_at is null;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.parent_id) into ids from old_rows o where o.parent_id is not null and o.deleted_at is null;
  else
    select array_agg(distinct x.id) into ids
      from new_rows n
      join old_rows o on o.id = n.id
      cross join lateral (values (n.parent_id), (case when n.parent_id is distinct from o.parent_id then o.parent_id end),
                                 (case when o.deleted_at is not null and n.deleted_at is null then n.id end)) x (id)
     where x.id is not null
       and (n.status is distinct from o.status or n.status_reason is distinct from o.status_reason
            or n.summary is distinct from o.summary or n.parent_id is distinct from o.parent_id
            or n.deleted_at is distinct from o.deleted_at or n.name is distinct from o.name);
  end if;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- Links (check_component_relationships, config_component_relationships): a link made, removed, soft-deleted or
-- restored, or moved to another component or item. Deleting a check, a config item or a component removes its links by
-- cascade, and that delete lands here. PL/pgSQL plans a trigger function apart for each table, so each table's plans
-- name only its own columns.
create or replace function component_links_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(distinct n.component_id) into ids from new_rows n where n.deleted_at is null;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.component_id) into ids from old_rows o where o.deleted_at is null;
  elsif tg_table_name = 'check_component_relationships' then
    select array_agg(distinct x.component_id) into ids
      from ((select n.component_id, n.check_id, n.deleted_at is null from new_rows n
             except
             select o.component_id, o.check_id, o.deleted_at is null from old_rows o)
            union all
            (select o.component_id, o.check_id, o.deleted_at is null from old_rows o
             except
             select n.component_id, n.check_id, n.deleted_at is null from new_rows n)) x (component_id, check_id, live);
  else
    select array_agg(distinct x.component_id) into ids
      from ((select n.component_id, n.config_id, n.deleted_at is null from new_rows n
             except
             select o.component_id, o.config_id, o.deleted_at is null from old_rows o)
            union all
            (select o.component_id, o.config_id, o.deleted_at is null from old_rows o
             except
             select n.component_id, n.config_id, n.deleted_at is null from new_rows n)) x (component_id, config_id, live);
  end if;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- Checks: a flip, a (un)deletion or a rename (reasons name the check). A new check has no links yet; a deleted one
-- loses them by cascade.
create or replace function checks_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  select array_agg(distinct l.component_id) into ids
    from new_rows n
    join old_rows o on o.id = n.id
    join check_component_relationships l on l.check_id = n.id and l.deleted_at is null
   where n.status is distinct from o.status or n.deleted_at is distinct from o.deleted_at or n.name is distinct from o.name;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- Config items: health, (un)deletion or a rename. Scrapers update items by the hundred and almost none is linked to a
-- component, so a first pass over the new rows keeps the linked ones (a hash of the links, probed once per row) and
-- stops there when there are none; the old rows are read only for those.
create or replace function config_items_rollup() returns trigger language plpgsql as $$
declare
  linked uuid[];
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  select array_agg(n.id) into linked
    from new_rows n
   where n.id in (select l.config_id from config_component_relationships l where l.deleted_at is null);
  if linked is null then
    return null;
  end if;
  select array_agg(distinct l.component_id) into ids
    from (select n.id, n.health, n.deleted_at, n.name from new_rows n where n.id = any(linked)) n
    join (select o.id, o.health, o.deleted_at, o.name from old_rows o where o.id = any(linked)) o on o.id = n.id
    join config_component_relationships l on l.config_id = n.id and l.deleted_at is null
   where n.health is distinct from o.health or n.deleted_at is distinct from o.deleted_at or n.name is distinct from o.name;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- Insights: an open one appears or goes, or an open one changes what it is counted under.
create or replace function config_analysis_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(distinct l.component_id) into ids
      from new_rows n
      join config_component_relationships l on l.config_id = n.config_id and l.deleted_at is null
     where n.status = 'open';
  elsif tg_op = 'DELETE' then
    select array_agg(distinct l.component_id) into ids
      from old_rows o
      join config_component_relationships l on l.config_id = o.config_id and l.deleted_at is null
     where o.status = 'open';
  else
    -- Analyzers upsert every finding they see on each run, moving only last_observed: an update counts when an open
    -- finding of a linked item appears, goes or is counted elsewhere, i.e. when the open findings of linked items as
    -- (id, item, type, severity) differ before and after.
    with linked as (
      select l.config_id from config_component_relationships l where l.deleted_at is null
    ), open_after as (
      select n.id, n.config_id, n.analysis_type, n.severity from new_rows n
       where n.status = 'open' and n.config_id in (select config_id from linked)
    ), open_before as (
      select o.id, o.config_id, o.analysis_type, o.severity from old_rows o
       where o.status = 'open' and o.config_id in (select config_id from linked)
    ), moved as (
      (select * from open_after except select * from open_before)
      union all
      (select * from open_before except select * from open_after)
    )
    select array_agg(distinct l.component_id) into ids
      from moved m
      join config_component_relationships l on l.config_id = m.config_id and l.deleted_at is null;
  end if;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- Incidents reach components through the evidence of their hypotheses. A new incident has no evidence yet; deleting an
-- incident or a hypothesis deletes its evidence by cascade, which the evidences triggers see.
create or replace function incidents_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  select array_agg(distinct e.component_id) into ids
    from new_rows n
    join old_rows o on o.id = n.id
    join hypotheses h on h.incident_id = n.id
    join evidences e on e.hypothesis_id = h.id and e.component_id is not null
   where (n.status, n.severity, n.type) is distinct from (o.status, o.severity, o.type);
  perform topology_refresh_components(ids);
  return null;
end;
$$;

create or replace function evidences_rollup() returns trigger language plpgsql as $$
declare
  ids uuid[];
begin
  if topology_rollup_paused() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    select array_agg(distinct n.component_id) into ids from new_rows n where n.component_id is not null;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct o.component_id) into ids from old_rows o where o.component_id is not null;
  else
    select array_agg(distinct x.component_id) into ids
      from new_rows n
      join old_rows o on o.id = n.id
      cross join lateral (values (n.component_id), (o.component_id)) x (component_id)
     where x.component_id is not null
       and (n.component_id is distinct from o.component_id or n.hypothesis_id is distinct from o.hypothesis_id);
  end if;
  perform topology_refresh_components(ids);
  return null;
end;
$$;

-- The triggers: statement-level, one per event (a transition table allows no more), named <table>_rollup_<event>.
do $$
declare
  t record;
  event text;
begin
  for t in
    select * from (values
      ('components', 'components_rollup', array['insert', 'update', 'delete']),
      ('check_component_relationships', 'component_links_rollup', array['insert', 'update', 'delete']),
      ('config_component_relationships', 'component_links_rollup', array['insert', 'update', 'delete']),
      ('checks', 'checks_rollup', array['update']),
      ('config_items', 'config_items_rollup', array['update']),
      ('config_analysis', 'config_analysis_rollup', array['insert', 'update', 'delete']),
      ('incidents', 'incidents_rollup', array['update']),
      ('evidences', 'evidences_rollup', array['insert', 'update', 'delete'])) v (tbl, fn, events)
  loop
    foreach event in array t.events loop
      execute format('create trigger %I after %s on %I referencing %s for each statement execute function %I()',
                     t.tbl || '_rollup_' || event, event, t.tbl,
                     case event when 'insert' then 'new table as new_rows'
                                when 'delete' then 'old table as old_rows'
                                else 'old table as old_rows new table as new_rows' end,
                     t.fn);
    end loop;
  end loop;
end;
$$;

-- Components stored before this migration get their status and summary from their inputs.
select topology_refresh_tree(t.id) from topologies t where t.deleted_at is null;
