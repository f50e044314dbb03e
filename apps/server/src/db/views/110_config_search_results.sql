-- config_search_results: the row of search_configs.
-- History: 0083
-- Read on its own it lists every item unranked (rank 0); it exists so that the data API knows the function's columns
-- and the relationships behind them (agent_id, scraper_id embeds). It reads configs, so it follows that view's columns.
create view config_search_results as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
       c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
       c.changes, c.analysis, 0::real as rank
  from configs c;
