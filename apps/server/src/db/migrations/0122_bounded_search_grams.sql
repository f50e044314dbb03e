-- The search pieces of a name come from its first 320 characters (issue #33 item 3). substr() on a character offset
-- reads the text from its start, so pieces of a whole name cost time quadratic in its length: an incident title of
-- 20,000 characters held a connection for seconds and one of 40,000 ran into the statement timeout. Names and titles
-- written through the data API are at most 256 characters (data-api/text-limits.ts); the extra room keeps an
-- incident's display id, appended after its title, among the pieces. The indexes built with the old body are rebuilt.
create or replace function search_name_grams(name text) returns text[] language sql immutable parallel safe as $$
  select coalesce(array_agg(distinct substr(s.l, i, n)), '{}')
    from (select lower(left(coalesce(name, ''), 320)) as l) s
   cross join generate_series(1, 3) n
   cross join lateral generate_series(1, length(s.l) - n + 1) i
$$;

reindex index checks_search_grams_idx;
reindex index config_items_search_grams_idx;
reindex index components_search_grams_idx;
reindex index incidents_search_grams_idx;
