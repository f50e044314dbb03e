-- POST /api/catalog/summary keeps its answers for a short while (catalog-summary-cache.ts, ADR 0053). An answer is
-- reused only while this number has not moved, and every write to a table the summary reads moves it. A sequence
-- rather than a counter row: nextval never waits for another writer's lock and never rolls back, and readers see
-- last_value at once, committed or not.
create sequence catalog_write_version;

create function catalog_write_version_bump() returns trigger language plpgsql as $$
begin
  perform nextval('catalog_write_version');
  return null;
end
$$;

-- The statement bump happens before the writer commits, so a summary computed between it and the commit would be
-- stored under the new number without the new rows. A second bump when the writing transaction commits closes that
-- gap; constraint triggers are the only ones that can wait for the commit, and they fire per row, so the first row's
-- trigger marks the transaction and the rest return at once.
create function catalog_write_version_bump_at_commit() returns trigger language plpgsql as $$
begin
  if current_setting('opsdeck.catalog_version_bumped', true) is distinct from txid_current()::text then
    perform nextval('catalog_write_version');
    perform set_config('opsdeck.catalog_version_bumped', txid_current()::text, true);
  end if;
  return null;
end
$$;

create trigger config_items_write_version after insert or update or delete or truncate on config_items
  for each statement execute function catalog_write_version_bump();
create trigger config_changes_write_version after insert or update or delete or truncate on config_changes
  for each statement execute function catalog_write_version_bump();
create trigger config_analysis_write_version after insert or update or delete or truncate on config_analysis
  for each statement execute function catalog_write_version_bump();

create constraint trigger config_items_write_version_at_commit after insert or update or delete on config_items
  deferrable initially deferred for each row execute function catalog_write_version_bump_at_commit();
create constraint trigger config_changes_write_version_at_commit after insert or update or delete on config_changes
  deferrable initially deferred for each row execute function catalog_write_version_bump_at_commit();
create constraint trigger config_analysis_write_version_at_commit after insert or update or delete on config_analysis
  deferrable initially deferred for each row execute function catalog_write_version_bump_at_commit();
