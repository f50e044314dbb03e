-- changes_by_component: the changes of the config items linked to a component.
-- History: 0008 0081
-- The distinct pairs keep each change once when a config and a component are linked by several selectors.
create view changes_by_component as
select l.component_id, ch.id, ch.config_id, ch.change_type, ch.severity, ch.source, ch.summary, ch.count,
       ch.first_observed, ch.created_by, ch.external_created_by, ch.created_at,
       c.name as config_name, c.type as config_type, c.config_class,
       c.tags, c.deleted_at as config_deleted_at
  from (select distinct r.component_id, r.config_id from config_component_relationships r where r.deleted_at is null) l
  join config_changes ch on ch.config_id = l.config_id
  join config_items c on c.id = ch.config_id;
