-- config_items_with_logs (issue #34): the live configuration items a log backend route serves, so the logs page can
-- offer them beside components and an item's page can tell whether it has logs. An item matches as
-- config_log_selectors (0100) decides: a route of kind config (or of no kind) whose type and name globs match and whose
-- labels are a subset of the item's labels with its tags over them. Items carry no selectors of their own.
-- As in components_with_logs, the filter is an EXISTS over the few routes, read once, and the selectors are a scalar in
-- the select list, built only for the rows a page returns; the picker asks for a page of names (`name=ilike.…`,
-- `order=name`, `limit`), never for every item.
create view config_items_with_logs as
with routes as materialized (
  select r.type_like, r.name_like, r.labels
    from logging_backends_routes r
   where r.route_kind is null or r.route_kind = 'config'
)
select i.id, i.name, i.type, i.config_class, i.tags, i.agent_id,
       config_log_selectors(i.id) as log_selectors
  from config_items i
 where i.deleted_at is null
   and exists (select 1 from routes r
                where (r.type_like is null or i.type like r.type_like)
                  and (r.name_like is null or i.name like r.name_like)
                  and ((case when jsonb_typeof(i.labels) = 'object' then i.labels else '{}'::jsonb end)
                       || (case when jsonb_typeof(i.tags) = 'object' then i.tags else '{}'::jsonb end)) @> r.labels);
