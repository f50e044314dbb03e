-- The health summary keeps its counts, tabs, groups and label values while nothing they depend on has changed
-- (modules/health/summary-queries.ts, ADR 0040 as amended for issue #33): this number moves when it may have. What
-- moves it: a check added or removed, a check's health, liveness, labels, namespace, name, type, description, canary
-- or agent changed, a canary or agent renamed, and a check's failures in an uptime window going from none to some or
-- back (a passing check with failures in the range is a warning). A run that leaves a check as it was (most of the
-- status writer's updates) and a window refresh that only moves the totals do not, so a steady fleet keeps its counts.
-- Constraint triggers, which fire at commit: the number moves once per writing transaction, as late as a trigger can.
-- An answer computed in the instant between that and the commit becoming visible is kept under the new number
-- without the write; the cache's one-minute bound ends it (as migration 0084 does for the catalog).
create sequence health_summary_version;

create function health_summary_version_bump() returns trigger language plpgsql as $$
begin
  if current_setting('opsdeck.health_version_bumped', true) is distinct from txid_current()::text then
    perform nextval('health_summary_version');
    perform set_config('opsdeck.health_version_bumped', txid_current()::text, true);
  end if;
  return null;
end
$$;

create constraint trigger checks_health_version_written after insert or delete on checks
  deferrable initially deferred for each row execute function health_summary_version_bump();
create constraint trigger checks_health_version_changed after update on checks
  deferrable initially deferred for each row
  when ((old.status, old.deleted_at, old.labels, old.namespace, old.name, old.type, old.description, old.canary_id, old.agent_id)
        is distinct from (new.status, new.deleted_at, new.labels, new.namespace, new.name, new.type, new.description, new.canary_id, new.agent_id))
  execute function health_summary_version_bump();
create constraint trigger canaries_health_version_renamed after update on canaries
  deferrable initially deferred for each row
  when (old.name is distinct from new.name)
  execute function health_summary_version_bump();
create constraint trigger agents_health_version_renamed after update on agents
  deferrable initially deferred for each row
  when (old.name is distinct from new.name)
  execute function health_summary_version_bump();
create constraint trigger check_uptime_windows_health_version_written after insert or delete on check_uptime_windows
  deferrable initially deferred for each row execute function health_summary_version_bump();
create constraint trigger check_uptime_windows_health_version_failed after update on check_uptime_windows
  deferrable initially deferred for each row
  when ((old.failed > 0) is distinct from (new.failed > 0) or old.window_key is distinct from new.window_key or old.check_id is distinct from new.check_id)
  execute function health_summary_version_bump();
