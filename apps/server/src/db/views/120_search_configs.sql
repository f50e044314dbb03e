-- search_configs: the catalog search, `rpc/search_configs?search=…`.
-- History: 0083 0085
-- The items matching a search, with their rank: 4 and more when the name is the search text (ignoring case), 3 and
-- more when it starts with it, 2 and more when the name alone holds every word, 1 and more when name, labels and tags
-- do, below 1 when content was needed; the fraction is ts_rank scaled into [0, 1) (32), which orders within a tier. A
-- single SQL statement, so the planner inlines it and the caller's filters, order and limit reach config_items and its
-- indexes. The search's tsquery is a scalar subquery, evaluated once per call: as a plain call it was evaluated for
-- every matching row under a generic plan (the data API's prepared statements), 9.5 s for a word a third of 100,000
-- items hold against 0.3 s (issue #33). It returns config_search_results rows: rebuilding that view drops this
-- function, and this file, after it in order, creates it again.
create or replace function search_configs(search text) returns setof config_search_results language sql stable as $$
  select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
         c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
         c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
         c.changes, c.analysis, m.rank
    from (select i.id,
                 (case when lower(i.name) = lower(btrim(search)) then 4
                       when starts_with(lower(i.name), lower(btrim(search))) then 3
                       when ts_filter(i.search_vector, '{a}') @@ (select config_search_query(search)) then 2
                       when ts_filter(i.search_vector, '{a,b}') @@ (select config_search_query(search)) then 1
                       else 0 end + ts_rank(i.search_vector, (select config_search_query(search)), 32))::real as rank
            from config_items i
           where i.search_vector @@ (select config_search_query(search))) m
    join configs c on c.id = m.id
$$;
