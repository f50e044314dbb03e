-- The search pieces of a name computed by a loop rather than a set-returning query (issue #33 item 2: a full scrape of
-- 100,000 items in under 45 s). Every index on search_name_grams evaluates it for each row written, and the SQL form
-- (two generate_series, a lateral join, substr() at character offsets and a sorted DISTINCT) cost about 0.3 ms for a
-- 45-character name, most of what inserting a config item costs; the loop over the name's characters costs a seventh of
-- it (0.04 ms), which a search's scan of incident titles also gains. It yields the same pieces, a piece that repeats in
-- the name appearing more than once; GIN keeps one index entry per distinct key, and `@>` reads the array as a set, so
-- neither the indexes nor the searches see a difference. The indexes built with the old body are rebuilt.

create or replace function search_name_grams(name text) returns text[] language plpgsql immutable parallel safe as $$
declare
  chars text[] := coalesce(string_to_array(lower(left(coalesce(name, ''), 320)), null), '{}');
  len integer := cardinality(chars);
  pieces text[] := chars;
  pair text;
begin
  for i in 1..len - 1 loop
    pair := chars[i] || chars[i + 1];
    pieces := pieces || pair;
    if i < len - 1 then
      pieces := pieces || (pair || chars[i + 2]);
    end if;
  end loop;
  return pieces;
end
$$;

reindex index checks_search_grams_idx;
reindex index config_items_search_grams_idx;
reindex index components_search_grams_idx;
reindex index incidents_search_grams_idx;
