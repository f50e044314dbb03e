-- A topology keeps a canary per inline check entry (`checks[].inline`, modules/topology/inline-canaries.ts), marked
-- source = 'topology:<topology id>/<key>'. They go with their topology, whoever deletes it and however (a soft delete
-- through the API, a hard delete): their checks follow through the canary reconciler, which sees updated_at move.
create or replace function topology_inline_canaries_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' or (new.deleted_at is not null and old.deleted_at is null) then
    update canaries set deleted_at = now()
     where source like 'topology:' || old.id::text || '/%' and deleted_at is null;
  end if;
  return null;
end;
$$;

create trigger topologies_inline_canaries_follow after update of deleted_at or delete on topologies
  for each row execute function topology_inline_canaries_follow();
