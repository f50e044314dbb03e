-- Current definitions: views/100_configs.sql, views/130_config_detail.sql (applied after the numbered migrations, ADR
-- 0064). What this file defines of them is history a fresh database replays: change them there.
-- What the scrape ingest (issue #12 items 3 and 4) needs to compare a run with the stored items without rewriting them.
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- A rescrape that finds nothing new must not write the items it saw: stamping last_scraped_time on each of them rewrote
-- every row, with its sixteen indexes and its generated search_vector, and a 100,000-item rescrape took far longer
-- than the scrape interval allows. So an item carries the hash of what it was scraped as, the ingest writes only the
-- rows whose hash moved, and the time a scraper last ran is kept once per scraper.

-- sha256 of the canonical JSON of the scraped fields, computed by the ingest; null for items no scraper wrote.
alter table config_items add column config_hash text;

-- A complete run soft-deletes the links of its scraper it no longer reports; this finds them without reading every
-- link of every scraper and the manual ones.
create index config_relationships_selector_idx on config_relationships (selector_id) where deleted_at is null;

create table config_scraper_state (
  scraper_id uuid primary key references config_scrapers (id) on delete cascade,
  -- The end of the scraper's last run, complete or not.
  last_scraped_time timestamptz,
  -- The end of its last run that saw everything it is responsible for.
  last_complete_scrape timestamptz
);

-- The read models report an item's last scrape as the later of its own stamp (set when it was created or changed)
-- and its scraper's last run, which saw it unchanged; a deleted item keeps the stamp of its last sighting. Only that
-- column differs from 0008 (configs) and 0081 (config_detail); config_search_results and search_configs read configs,
-- so they follow.
create or replace view configs as
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

create or replace view config_detail as
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
