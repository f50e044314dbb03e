-- configs: the catalog list's rows, config items without their content.
-- History: 0008 0086
-- Changes and analysis are computed per returned row, so a filtered or paged read never counts a whole table. An item's
-- last scrape is the later of its own stamp (set when it was created or changed) and its scraper's last run, which saw
-- it unchanged; a deleted item keeps the stamp of its last sighting.
create view configs as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
       c.cost_total_30d,
       case when c.deleted_at is null
            then greatest(c.last_scraped_time,
                          (select s.last_scraped_time from config_scraper_state s where s.scraper_id = c.scraper_id))
            else c.last_scraped_time end as last_scraped_time,
       c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select count(*)::integer from config_changes ch
         where ch.config_id = c.id and ch.created_at > now() - interval '30 days') as changes,
       (select coalesce(jsonb_object_agg(a.analysis_type, a.n), '{}'::jsonb)
          from (select ca.analysis_type, count(*) as n from config_analysis ca
                 where ca.config_id = c.id and ca.status = 'open' group by ca.analysis_type) a) as analysis
  from config_items c;
