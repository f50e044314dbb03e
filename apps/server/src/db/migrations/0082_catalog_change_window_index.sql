-- POST /api/catalog/changes orders by created_at desc nulls last, id desc, and counts every change of its time window
-- per change type and severity (about 65,000 rows for two days at 1,000,000 changes). config_changes_created_at_idx
-- has the default nulls-first order, so the page sorted the whole window and the counts visited every heap page of it.
-- This index has the route's exact order, so the page reads 200 entries, and carries the counted columns, so the counts
-- are an index-only scan. The old index stays for the data API, whose created_at.desc is nulls first.
-- PostgreSQL 15 syntax: it also runs on PGlite.

create index config_changes_window_idx on config_changes (created_at desc nulls last, id desc) include (config_id, change_type, severity);
