-- analysis_by_component: the insights of the config items linked to a component.
-- History: 0008 0081
-- A config and a component may be linked by several selectors (a scraper's and a manual one); the distinct pairs keep
-- each finding once.
create view analysis_by_component as
select l.component_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, c.name as config_name, c.type as config_type, c.config_class,
       a.scraper_id, a.created_by, a.created_at, a.updated_at, c.deleted_at as config_deleted_at, a.analysis
  from (select distinct r.component_id, r.config_id from config_component_relationships r where r.deleted_at is null) l
  join config_analysis a on a.config_id = l.config_id
  join config_items c on c.id = a.config_id;
