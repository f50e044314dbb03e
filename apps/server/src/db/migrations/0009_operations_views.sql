-- Current definitions: views/400_event_queue_summary.sql, views/500_teams_with_status.sql (applied after the numbered
-- migrations, ADR 0064). What this file defines of them is history a fresh database replays: change them there.
-- Read models of the operations and settings screens: job history, agents, notifications, the event queue, and the
-- *_with_status views the generic settings pages and the integrations list read.
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Per-row lookups are correlated subqueries or lateral joins over indexed keys, so a paged request only pays for the
-- rows of its page.

create view job_histories as
select j.id, j.name, j.resource_type, j.resource_id, j.status, j.success_count, j.error_count, j.duration_millis,
       j.hostname, j.time_start, j.time_end, j.details, j.agent_id, j.created_at, j.updated_at,
       case j.resource_type
         when 'canary' then (select x.name from canaries x where x.id = j.resource_id)
         when 'check' then (select x.name from checks x where x.id = j.resource_id)
         when 'topology' then (select x.name from topologies x where x.id = j.resource_id)
         when 'component' then (select x.name from components x where x.id = j.resource_id)
         when 'config_scraper' then (select x.name from config_scrapers x where x.id = j.resource_id)
         when 'catalog_scraper' then (select x.name from config_scrapers x where x.id = j.resource_id)
         when 'config' then (select x.name from config_items x where x.id = j.resource_id)
         when 'playbook' then (select x.name from playbooks x where x.id = j.resource_id)
         when 'agent' then (select x.name from agents x where x.id = j.resource_id)
         when 'notification' then (select coalesce(x.name, x.title) from notifications x where x.id = j.resource_id)
         when 'logging_backend' then (select x.name from logging_backends x where x.id = j.resource_id)
         when 'team' then (select x.name from teams x where x.id = j.resource_id)
       end as resource_name,
       (select jsonb_build_object('id', a.id, 'name', a.name) from agents a where a.id = j.agent_id) as agent
  from job_history j;

create view job_history_names as
with recursive t (name) as (
  (select j.name from job_history j order by j.name limit 1)
  union all
  select (select j.name from job_history j where j.name > t.name order by j.name limit 1)
    from t
   where t.name is not null
)
select t.name from t where t.name is not null;

-- The access token hash stays out of every view.
create view agents_summary as
select a.id, a.name, a.description, a.hostname, a.version, a.properties, a.last_seen, a.last_received,
       a.created_by, a.created_at, a.updated_at, a.deleted_at,
       (select count(*)::integer from config_items c where c.agent_id = a.id and c.deleted_at is null) as config_count,
       (select count(*)::integer from checks k where k.agent_id = a.id and k.deleted_at is null) as checks_count,
       -- The spec spells this one with a double p.
       (select count(*)::integer from config_scrapers s where s.agent_id = a.id and s.deleted_at is null)
         as config_scrapper_count,
       (select count(*)::integer from playbook_runs r where r.agent_id = a.id) as playbook_runs_count
  from agents a
 where a.deleted_at is null;

create view notifications_summary as
select n.id, n.name, n.title, n.events, n.filter, n.person_id, n.team_id, n.custom_services, n.template,
       n.properties, n.source, n.created_by, n.created_at, n.updated_at, n.deleted_at,
       coalesce(s.pending, 0) as pending, coalesce(s.failed, 0) as failed, coalesce(s.sent, 0) as sent,
       s.avg_duration_ms, s.most_common_error
  from notifications n
  left join lateral (
    select (count(*) filter (where h.status in ('pending', 'sending')))::integer as pending,
           (count(*) filter (where h.status = 'failed'))::integer as failed,
           (count(*) filter (where h.status = 'sent'))::integer as sent,
           round(avg(h.duration_millis))::integer as avg_duration_ms,
           mode() within group (order by h.error) filter (where h.error is not null) as most_common_error
      from notification_send_history h
     where h.notification_id = n.id
  ) s on true
 where n.deleted_at is null;

-- The queue holds only the backlog (consumed events are deleted), so grouping it whole stays cheap.
create view event_queue_summary as
select q.name,
       (count(*) filter (where q.error is null))::integer as pending,
       (count(*) filter (where q.error is not null))::integer as failed,
       round(avg(q.attempts), 2)::double precision as average_attempts,
       min(q.last_attempt) filter (where q.error is not null) as first_failure,
       max(q.last_attempt) filter (where q.error is not null) as last_failure,
       mode() within group (order by q.error) filter (where q.error is not null) as most_common_error
  from event_queue q
 group by q.name;

-- Settings resources with their latest job: job_status, job_details, job_name and job_time_start come from the newest
-- job_history row of the resource, last_runtime is when it started, job_last_failed when the newest failed one was
-- written.
create view canaries_with_status as
select c.id, c.name, c.namespace, c.description, c.icon, c.labels, c.spec, c.schedule, c.source, c.agent_id,
       c.created_by, c.created_at, c.updated_at, c.deleted_at,
       (select jsonb_build_object('id', a.id, 'name', a.name) from agents a where a.id = c.agent_id) as agent,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = c.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from canaries c
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = c.id order by j.created_at desc limit 1
  ) job on true;

create view topologies_with_status as
select t.id, t.name, t.namespace, t.description, t.icon, t.labels, t.spec, t.schedule, t.source, t.agent_id,
       t.created_by, t.created_at, t.updated_at, t.deleted_at,
       (select jsonb_build_object('id', a.id, 'name', a.name) from agents a where a.id = t.agent_id) as agent,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = t.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from topologies t
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = t.id order by j.created_at desc limit 1
  ) job on true;

create view config_scrapers_with_status as
select s.id, s.name, s.namespace, s.description, s.labels, s.spec, s.schedule, s.source, s.agent_id,
       s.created_by, s.created_at, s.updated_at, s.deleted_at,
       (select jsonb_build_object('id', a.id, 'name', a.name) from agents a where a.id = s.agent_id) as agent,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = s.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from config_scrapers s
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = s.id order by j.created_at desc limit 1
  ) job on true;

create view logging_backends_with_status as
select b.id, b.name, b.namespace, b.labels, b.spec, b.source, b.agent_id,
       b.created_by, b.created_at, b.updated_at, b.deleted_at,
       (select jsonb_build_object('id', a.id, 'name', a.name) from agents a where a.id = b.agent_id) as agent,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = b.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from logging_backends b
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = b.id order by j.created_at desc limit 1
  ) job on true;

create view teams_with_status as
select t.id, t.name, t.icon, t.spec, t.source, t.created_by, t.created_at, t.updated_at, t.deleted_at,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = t.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from teams t
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = t.id order by j.created_at desc limit 1
  ) job on true;

-- integration_type is the route segment of /settings/integrations/{type}/{id}.
create view integrations as
select t.id, t.name, t.namespace, t.description, t.labels, t.spec, t.schedule, t.source, t.agent_id,
       'topologies'::text as integration_type, t.created_by, t.created_at, t.updated_at, t.deleted_at
  from topologies t
union all
select s.id, s.name, s.namespace, s.description, s.labels, s.spec, s.schedule, s.source, s.agent_id,
       'scrapers'::text, s.created_by, s.created_at, s.updated_at, s.deleted_at
  from config_scrapers s
union all
select b.id, b.name, b.namespace, null::text, b.labels, b.spec, null::text, b.source, b.agent_id,
       'logging_backends'::text, b.created_by, b.created_at, b.updated_at, b.deleted_at
  from logging_backends b;

create view integrations_with_status as
select t.id, t.name, t.namespace, t.description, t.labels, t.spec, t.schedule, t.source, t.agent_id, t.agent,
       'topologies'::text as integration_type, t.job_status, t.job_details, t.job_name, t.job_time_start,
       t.last_runtime, t.job_last_failed, t.created_by, t.created_at, t.updated_at, t.deleted_at
  from topologies_with_status t
union all
select s.id, s.name, s.namespace, s.description, s.labels, s.spec, s.schedule, s.source, s.agent_id, s.agent,
       'scrapers'::text, s.job_status, s.job_details, s.job_name, s.job_time_start,
       s.last_runtime, s.job_last_failed, s.created_by, s.created_at, s.updated_at, s.deleted_at
  from config_scrapers_with_status s
union all
select b.id, b.name, b.namespace, null::text, b.labels, b.spec, null::text, b.source, b.agent_id, b.agent,
       'logging_backends'::text, b.job_status, b.job_details, b.job_name, b.job_time_start,
       b.last_runtime, b.job_last_failed, b.created_by, b.created_at, b.updated_at, b.deleted_at
  from logging_backends_with_status b;
