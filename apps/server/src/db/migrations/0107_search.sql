-- The command palette's search (issue #19 item 3, GET /api/search, modules/search): names of checks, config items,
-- components, incidents and playbooks ranked exact > prefix > word prefix > anywhere, at 10,000 checks and 100,000
-- config items in p95 < 100 ms. PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Decision: no pg_trgm. The embedded PGlite loads no extension, so a trigram index of our own: the distinct 1-, 2- and
-- 3-character pieces of the lower-cased name in a text[] with a GIN index. A search text of up to 3 characters must be
-- one of the pieces; a longer one must have all its 3-character pieces; the LIKE '%text%' after it removes the few
-- rows that hold the pieces in another order. The prefix tiers use a btree on the lower-cased name in the "C"
-- collation, which serves LIKE 'text%' and its order whatever the database's collation is, so a prefix shared by
-- 50,000 names still reads 20 index entries.

create function search_name_grams(name text) returns text[] language sql immutable parallel safe as $$
  select coalesce(array_agg(distinct substr(s.l, i, n)), '{}')
    from (select lower(coalesce(name, '')) as l) s
   cross join generate_series(1, 3) n
   cross join lateral generate_series(1, length(s.l) - n + 1) i
$$;

-- What a search text's name must hold: the text itself when it is at most 3 characters, else 3-character pieces of
-- it. Not all of them: every third one and the last, which cover the text. Any subset is a sound filter (the LIKE
-- decides), and each piece the GIN index intersects costs time, most of all the common ones ('-00', 'pod').
create function search_query_grams(search text) returns text[] language sql immutable parallel safe as $$
  select case when length(search) <= 3 then array[lower(search)]
              else array(select distinct substr(lower(search), i, 3)
                           from generate_series(1, length(search) - 2) i
                          where (i - 1) % 3 = 0 or i = length(search) - 2) end
$$;

create index checks_search_grams_idx on checks using gin (search_name_grams(name)) where deleted_at is null;
create index checks_search_prefix_idx on checks ((lower(name) collate "C")) where deleted_at is null;

create index config_items_search_grams_idx on config_items using gin (search_name_grams(name)) where deleted_at is null;
create index config_items_search_prefix_idx on config_items ((lower(name) collate "C")) where deleted_at is null;

create index components_search_grams_idx on components using gin (search_name_grams(name)) where deleted_at is null;
create index components_search_prefix_idx on components ((lower(name) collate "C")) where deleted_at is null;

-- An incident is found by its title or its display id (INC-42); the pieces of both in one index. Playbooks are a few
-- dozen rows and are read without an index.
create index incidents_search_grams_idx on incidents using gin (search_name_grams(title || ' ' || incident_id));
create index incidents_search_title_prefix_idx on incidents ((lower(title) collate "C"));
create index incidents_search_id_prefix_idx on incidents ((lower(incident_id) collate "C"));
