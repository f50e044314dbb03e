-- Topology runs (issue #13): when each topology is built next and which worker holds it, the key a run matches stored
-- components by, and soft deletion of a topology reaching its components.
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Kept apart from topologies, like config_scrapers_schedule, so a lease or a reschedule never moves the topology's
-- updated_at, which is how the scheduler notices an edit (made through any API or by another process) and builds the
-- new spec at once. A worker claims a due row with FOR UPDATE SKIP LOCKED and holds it until lease_expires_at, renewing
-- it while the build lasts: a topology is built at most once at a time across processes.
create table topologies_schedule (
  topology_id uuid primary key references topologies (id) on delete cascade,
  -- The topology's updated_at when this row last followed it.
  topology_updated_at timestamptz not null,
  next_runtime timestamptz not null default now(),
  last_runtime timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  running boolean not null default false,
  -- Run Now while a run is under way: the run that ends sees it and leaves the topology due again.
  run_requested_at timestamptz
);
create index topologies_schedule_due_idx on topologies_schedule (next_runtime);

-- A run finds the stored component of each built one by its key; one live component per key and topology, while
-- deleted ones keep theirs so a component that comes back gets its id, links and history back.
create unique index components_topology_external_id_idx on components (topology_id, external_id) where deleted_at is null;

create or replace function topologies_soft_delete_components() returns trigger language plpgsql as $$
begin
  update components set deleted_at = new.deleted_at where topology_id = new.id and deleted_at is null;
  return null;
end;
$$;
create trigger topologies_soft_delete_components after update of deleted_at on topologies
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function topologies_soft_delete_components();
