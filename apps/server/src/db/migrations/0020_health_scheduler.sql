-- Health scheduler: leases on checks and the indexes the due-check scan, canary sync and health summary read.
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- A worker claims a due check by setting lease_owner and lease_until (FOR UPDATE SKIP LOCKED), so a check runs at
-- most once at a time across processes; a lease left by a crashed worker expires and the check is claimable again.
alter table checks add column lease_owner text, add column lease_until timestamptz;
create index checks_due_idx on checks (next_runtime) where deleted_at is null;

-- (canary, type, name) identifies a check across saves of its canary spec.
create unique index checks_canary_type_name_key on checks (canary_id, type, name) where deleted_at is null;

-- The summary reads every check's buckets of one range; by bucket it skips the history outside the range.
create index check_statuses_1h_bucket_idx on check_statuses_1h (bucket);
create index check_statuses_1d_bucket_idx on check_statuses_1d (bucket);

-- The canary sync finds canaries changed since its last pass (also those edited through the data API).
create index canaries_updated_at_idx on canaries (updated_at);
