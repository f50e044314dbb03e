-- components_with_logs: the components that have logs, with their log selectors (issue #17).
-- History: 0008 0100
-- A component has logs when it carries its own log_selectors or when a live logging backend has a route that matches
-- it (logging_backends_routes, 0100). Each matching backend adds one selector {name, type, labels}: its name, its kind
-- and the labels of the first route that matched. The filter is an EXISTS, which stops at the first matching route,
-- and the selectors are a scalar subquery in the select list, so a page (`order by name limit 50`) or a count builds
-- the selector list only for the rows it returns: at 100,000 components and 40 routes a count takes ~0.3 s instead of
-- ~3 s with a lateral join (docs/logs.md).
create view components_with_logs as
with routes as materialized (
  select r.backend_id, r.backend_name, r.backend_kind, r.created_at, r.ord, r.type_like, r.name_like, r.labels
    from logging_backends_routes r
   where r.route_kind is null or r.route_kind = 'component'
)
select c.id, c.name, c.text, c.type, c.icon, c.topology_id, c.agent_id,
       (select case
                 when m.selectors is null then c.log_selectors
                 when jsonb_typeof(c.log_selectors) = 'array' then c.log_selectors || m.selectors
                 else m.selectors
               end
          from (
            select jsonb_agg(jsonb_build_object('name', s.backend_name, 'type', s.backend_kind, 'labels', s.labels)
                             order by s.backend_name, s.created_at) as selectors
              from (
                select distinct on (r.backend_id) r.backend_id, r.backend_name, r.backend_kind, r.labels, r.created_at
                  from routes r
                 where (r.type_like is null or coalesce(c.type, '') like r.type_like)
                   and (r.name_like is null or c.name like r.name_like)
                   and c.labels @> r.labels
                 order by r.backend_id, r.ord
              ) s
          ) m) as log_selectors
  from components c
 where c.deleted_at is null
   and (c.log_selectors is not null
        or exists (select 1 from routes r
                    where (r.type_like is null or coalesce(c.type, '') like r.type_like)
                      and (r.name_like is null or c.name like r.name_like)
                      and c.labels @> r.labels));
