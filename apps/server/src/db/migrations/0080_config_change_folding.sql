-- Identical repeated changes fold into one row (spec 002 §3: count, first_observed). Whoever writes a change — a
-- scraper, the data API, the seed — inserts it; a change whose fingerprint matches an existing row of the same item
-- instead adds its count to that row, moves created_at to the latest sighting and takes its summary and content,
-- while first_observed keeps the earliest. The insert of the duplicate then writes nothing (the trigger answers null),
-- so an INSERT … RETURNING of a folded change returns no row.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create or replace function config_changes_fold() returns trigger language plpgsql as $$
declare
  folded uuid;
begin
  -- Two writers folding the same fingerprint at once would both miss the other's row and insert twice; the lock per
  -- (item, fingerprint) makes the second wait and find the first.
  perform pg_advisory_xact_lock(hashtextextended(new.config_id::text || '/' || new.fingerprint, 0));
  update config_changes ch
     set count = ch.count + new.count,
         created_at = greatest(ch.created_at, new.created_at),
         first_observed = least(ch.first_observed, new.first_observed, new.created_at),
         severity = coalesce(new.severity, ch.severity),
         summary = coalesce(new.summary, ch.summary),
         diff = coalesce(new.diff, ch.diff),
         details = coalesce(new.details, ch.details),
         patches = coalesce(new.patches, ch.patches)
   where ch.id = (select f.id from config_changes f
                   where f.config_id = new.config_id and f.fingerprint = new.fingerprint
                   order by f.created_at desc
                   limit 1)
  returning ch.id into folded;
  if folded is not null then
    return null;
  end if;
  return new;
end;
$$;

create trigger config_changes_fold before insert on config_changes
  for each row when (new.fingerprint is not null) execute function config_changes_fold();
