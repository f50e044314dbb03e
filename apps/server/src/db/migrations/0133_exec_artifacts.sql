-- Files an exec playbook action or an exec check keeps (`artifacts: [{path}]`, ADR 0087). Exactly one owner per row:
-- the action's row (its artifacts go with its run), or the check (only its newest run's artifacts are kept). The
-- content is served by GET /api/artifacts/{id} alone, which checks the permission of what made it: the data API never
-- reaches this table (resource-map.ts).
create table exec_artifacts (
  id uuid primary key default gen_random_uuid(),
  playbook_run_action_id uuid references playbook_run_actions (id) on delete cascade,
  check_id uuid references checks (id) on delete cascade,
  path text not null,
  size bigint not null,
  checksum text not null,
  content bytea not null,
  created_at timestamptz not null default now(),
  constraint exec_artifacts_one_owner check ((playbook_run_action_id is null) <> (check_id is null))
);

create index exec_artifacts_action on exec_artifacts (playbook_run_action_id) where playbook_run_action_id is not null;
create index exec_artifacts_check on exec_artifacts (check_id) where check_id is not null;
