-- teams_with_status: the teams settings list, live teams only, with the job columns every generic settings list shows.
-- History: 0009 0103
create view teams_with_status as
select t.id, t.name, t.icon, t.spec, t.source, t.created_by, t.created_at, t.updated_at, t.deleted_at,
       -- The list's Members column (#34 item 21): people still with an account.
       (select count(*) from team_members m join people p on p.id = m.person_id
         where m.team_id = t.id and p.deleted_at is null)::integer as member_count,
       job.status as job_status, job.details as job_details, job.name as job_name, job.time_start as job_time_start,
       job.time_start as last_runtime,
       (select f.created_at from job_history f where f.resource_id = t.id and f.status = 'FAILED'
         order by f.created_at desc limit 1) as job_last_failed
  from teams t
  left join lateral (
    select j.status, j.details, j.name, j.time_start from job_history j
     where j.resource_id = t.id order by j.created_at desc limit 1
  ) job on true
 where t.deleted_at is null;
