-- related_configs_recursive: the Relationships tab's walk of the relationship graph from one item.
-- History: 0008 0081
-- Breadth first, one direction at a time: outgoing follows links from an item to its related items and from a parent
-- to its children; incoming follows them backwards. Hard relations are the parent tree; 'both' adds the soft ones of
-- config_relationships. Each item is reported once per direction, at the depth where it is first reached, so the cost
-- grows with the edges visited, never with the paths. The type, status and health filters select what is reported,
-- not what is walked through. It returns related_configs rows (0081), config_id being where the walk started, so the
-- data API reads it like that view. max_depth defaults to 10 and is capped at 10 (a larger value walks 10 steps; a
-- negative one is refused); a null type_filter or relation means its default; a relation other than 'hard' or 'both'
-- is refused rather than read as 'both'. Refusals are 22023, a 400.
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
