-- The scrape scheduler (issue #12 item 5): when each scraper runs next, and which worker holds it.
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Kept apart from config_scrapers so a lease or a reschedule never moves the scraper's updated_at, which is how the
-- scheduler notices an edit (made through any API or by another process) and runs the new spec at once.
-- A worker claims a due row with FOR UPDATE SKIP LOCKED and holds it until lease_expires_at, renewing it while the run
-- lasts: a scraper runs at most once at a time across processes, and a crashed worker's lease simply expires.
create table config_scrapers_schedule (
  scraper_id uuid primary key references config_scrapers (id) on delete cascade,
  -- The scraper's updated_at when this row last followed it.
  scraper_updated_at timestamptz not null,
  next_runtime timestamptz not null default now(),
  last_runtime timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  running boolean not null default false,
  -- Run Now while a run is under way: the run that ends sees it and leaves the scraper due again.
  run_requested_at timestamptz
);
create index config_scrapers_schedule_due_idx on config_scrapers_schedule (next_runtime);
