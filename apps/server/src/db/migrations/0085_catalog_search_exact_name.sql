-- Current definitions: views/120_search_configs.sql (applied after the numbered migrations, ADR 0064). What this file
-- defines of them is history a fresh database replays: change them there.
-- A search for `checkout` listed the pods `checkout-9xtkg62qvl-…` above the Deployment named `checkout`: their names
-- hold the word twice (whole and as a part), so ts_rank scored them higher. An SRE typing a name expects that item
-- first, so two tiers go above 0083's: 4 and more when the name is the search text (ignoring case), 3 and more when
-- it starts with it; the name, label and content tiers below are unchanged.
create or replace function search_configs(search text) returns setof config_search_results language sql stable as $$
  select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
         c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
         c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
         c.changes, c.analysis, m.rank
    from (select i.id,
                 (case when lower(i.name) = lower(btrim(search)) then 4
                       when starts_with(lower(i.name), lower(btrim(search))) then 3
                       when ts_filter(i.search_vector, '{a}') @@ config_search_query(search) then 2
                       when ts_filter(i.search_vector, '{a,b}') @@ config_search_query(search) then 1
                       else 0 end + ts_rank(i.search_vector, config_search_query(search), 32))::real as rank
            from config_items i
           where i.search_vector @@ config_search_query(search)) m
    join configs c on c.id = m.id
$$;
