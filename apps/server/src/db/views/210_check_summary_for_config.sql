-- check_summary_for_config: the checks linked to a config item, with uptime and latency over the last 24 hours from
-- the hourly rollup.
-- History: 0008 0081
-- The distinct pairs keep each check once when a config and a check are linked by several selectors.
create view check_summary_for_config as
select l.config_id, k.id, k.canary_id, k.agent_id, k.type, k.name, k.namespace, k.description, k.icon, k.endpoint,
       k.labels, k.status, k.severity, k.last_runtime, k.next_runtime, k.last_transition_time, k.created_at,
       k.updated_at, k.deleted_at,
       (select jsonb_build_object('passed', coalesce(sum(r.passed), 0), 'failed', coalesce(sum(r.failed), 0))
          from check_statuses_1h r where r.check_id = k.id and r.bucket >= now() - interval '24 hours') as uptime,
       (select jsonb_build_object(
                 'p95', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.95, max(r.duration_max)),
                 'p97', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.97, max(r.duration_max)),
                 'p99', check_duration_percentile(check_histogram_sum(r.duration_histogram), 0.99, max(r.duration_max)))
          from check_statuses_1h r where r.check_id = k.id and r.bucket >= now() - interval '24 hours') as latency
  from (select distinct r.config_id, r.check_id from check_config_relationships r where r.deleted_at is null) l
  join checks k on k.id = l.check_id
 where k.deleted_at is null;
