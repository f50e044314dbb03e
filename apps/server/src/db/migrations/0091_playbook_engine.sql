-- The playbook run engine (issue #14): runs keep the spec they were requested with, action rows are numbered in the
-- order of the spec, approvals are recorded per person, and the workers' two picks each have an index.
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- An edit of the playbook never changes a run already requested: the worker runs this copy.
alter table playbook_runs add column spec jsonb;

-- One row per spec action, created as the run reaches it; the position says which action of the spec a row is, so a
-- worker that takes a run over knows where it stands.
alter table playbook_run_actions add column position integer not null default 0;
update playbook_run_actions a
   set position = numbered.n - 1
  from (select id, row_number() over (partition by playbook_run_id order by scheduled_time, created_at, id) as n
          from playbook_run_actions) numbered
 where a.id = numbered.id;
create unique index playbook_run_actions_position_key on playbook_run_actions (playbook_run_id, position);

create table playbook_run_approvals (
  id uuid primary key default gen_random_uuid(),
  playbook_run_id uuid not null references playbook_runs (id) on delete cascade,
  person_id uuid not null references people (id),
  created_at timestamptz not null default now(),
  constraint playbook_run_approvals_run_person_key unique (playbook_run_id, person_id)
);
create index playbook_run_approvals_person_idx on playbook_run_approvals (person_id);

-- The workers' picks replace the index of 0007: runs due to start or wake up, oldest first, and runs whose worker
-- stopped renewing its lease (a crash, or a cancel it did not get to close), so another takes them over.
drop index playbook_runs_pending_idx;
create index playbook_runs_due_idx on playbook_runs (scheduled_time) where status in ('pending', 'scheduled');
create index playbook_runs_lease_idx on playbook_runs (locked_until) where status = 'running' or locked_by is not null;
