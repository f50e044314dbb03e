-- config_analysis_items: insights with the item they are about.
-- History: 0008 0081
-- The insights screens order by first_observed desc: a view cannot carry an order, so the client sends
-- order=first_observed.desc (config_analysis_first_observed_idx serves it). A component filter reads
-- analysis_by_component, which has these columns and component_id.
create view config_analysis_items as
select a.id, a.config_id, a.scraper_id, a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message,
       a.source, a.first_observed, a.last_observed, a.created_by, a.created_at, a.updated_at,
       c.name as config_name, c.type as config_type, c.config_class, c.deleted_at as config_deleted_at,
       a.analysis
  from config_analysis a
  join config_items c on c.id = a.config_id;
