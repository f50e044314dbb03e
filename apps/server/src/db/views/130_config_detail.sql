-- config_detail: one config item with its content and the counts behind the detail page's tab badges; meant for
-- id=eq.{id}.
-- History: 0008 0081 0086
-- relationships counts the items one step away in either direction, through the parent tree and the soft links alike,
-- leaving out deleted ones: what the Relationships tab lists at depth 1. checks counts the checks
-- check_summary_for_config lists. last_scraped_time is computed as in configs.
create view config_detail as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.properties, c.config, c.format, c.source,
       c.cost_per_minute, c.cost_total_1d, c.cost_total_7d, c.cost_total_30d,
       case when c.deleted_at is null
            then greatest(c.last_scraped_time,
                          (select s.last_scraped_time from config_scraper_state s where s.scraper_id = c.scraper_id))
            else c.last_scraped_time end as last_scraped_time,
       c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select count(*)::integer from config_changes ch where ch.config_id = c.id) as changes,
       (select count(*)::integer from config_analysis ca where ca.config_id = c.id) as analysis,
       (select count(*)::integer
          from (select r.related_id as id from config_relationships r where r.config_id = c.id and r.deleted_at is null
                union
                select r.config_id from config_relationships r where r.related_id = c.id and r.deleted_at is null
                union
                select ch.id from config_items ch where ch.parent_id = c.id
                union
                select c.parent_id where c.parent_id is not null) n
          join config_items t on t.id = n.id
         where t.deleted_at is null) as relationships,
       (select count(*)::integer from playbook_runs pr where pr.config_id = c.id) as playbook_runs,
       (select count(distinct cc.check_id)::integer
          from check_config_relationships cc
          join checks k on k.id = cc.check_id
         where cc.config_id = c.id and cc.deleted_at is null and k.deleted_at is null) as checks
  from config_items c;
