-- Current definitions: views/110_config_search_results.sql, views/120_search_configs.sql (applied after the numbered
-- migrations, ADR 0064). What this file defines of them is history a fresh database replays: change them there.
-- Search inside config items (issue #11 item 6): the catalog search finds an item by its name, its labels (keys and
-- values), its tag values and the keys and string values of its content (a ConfigMap is found by the setting it
-- holds), ranked name above labels and tags above content.
-- PostgreSQL 15 syntax: it also runs on PGlite.
--
-- Decision: the search is a function of the data API, `rpc/search_configs?search=…`, returning rows of the view
-- config_search_results (the configs columns plus rank), not a route of the catalog module. The flat table already
-- reads `configs` through /api/db with its filters, embeds, exact count, paging and order; a function returning a
-- view's rows is read like that view (0081's related_configs_recursive), so every one of them applies to the search
-- unchanged, and the permission is the `database` read of every catalog view. A route would have to restate each of
-- them in SQL of its own.
--
-- The 'simple' configuration keeps words as written (lower-cased, no stemming, no stop words), so identifiers and
-- addresses match: the parser keeps `checkout-7f9c` whole and also as `checkout` and `7f9c`, `10.0.1.23` and
-- `api.shop.internal` whole. The last word of a search also matches as a prefix, so results follow the typing.

-- The document of one item, weighted by where a word sits: A name, B labels and tags, C content. A tsvector holds at
-- most 1 MB of distinct words; content beyond that would make the write of the item itself fail, so such an item is
-- found by its name, labels and tags only.
create function config_search_document(name text, labels jsonb, tags jsonb, config jsonb) returns tsvector
language plpgsql immutable as $$
declare
  head tsvector := setweight(to_tsvector('simple'::regconfig, coalesce(name, '')), 'A')
    || setweight(jsonb_to_tsvector('simple'::regconfig, coalesce(labels, '{}'::jsonb), '["key", "string"]'), 'B')
    || setweight(jsonb_to_tsvector('simple'::regconfig, coalesce(tags, '{}'::jsonb), '["string"]'), 'B');
begin
  return head || setweight(jsonb_to_tsvector('simple'::regconfig, coalesce(config, '{}'::jsonb), '["key", "string"]'), 'C');
exception when program_limit_exceeded then
  return head;
end;
$$;

-- Generated rather than kept by a trigger: adding it computes every existing row without firing the updated_at
-- trigger, which an update backfill would, and no write path can forget it.
alter table config_items
  add column search_vector tsvector generated always as (config_search_document(name, labels, tags, config)) stored;
create index config_items_search_idx on config_items using gin (search_vector);

-- The query of a search text: every word must match (AND), each of the last word's as a prefix. A hyphenated word
-- counts by its parts (`checkout-7f9c` is `checkout` and `7f9c`), which the document also holds, so a half-typed
-- `checkout-7f` still matches. Punctuation adds nothing; a text with no word at all is null, which matches no item
-- (an empty tsquery would too, with a notice for every row). Longer than 200 characters is refused with 22023, the
-- data API's 400.
create function config_search_query(search text) returns tsquery language plpgsql immutable as $$
declare
  words text[] := regexp_split_to_array(btrim(coalesce(search, '')), '\s+');
  word_count integer := coalesce(array_length(words, 1), 0);
  terms text[] := '{}';
begin
  if length(search) > 200 then
    raise exception 'search must be at most 200 characters' using errcode = '22023';
  end if;
  for i in 1 .. word_count loop
    -- Each lexeme quoted for tsquery input, where a backslash escapes and a quote is doubled.
    terms := terms || array(
      select '''' || replace(replace(l, '\', '\\'), '''', '''''') || '''' || case when i = word_count then ':*' else '' end
        from ts_debug('simple'::regconfig, words[i]) d, unnest(d.lexemes) l
       where d.alias not in ('asciihword', 'hword', 'numhword'));
  end loop;
  if cardinality(terms) = 0 then
    return null;
  end if;
  return array_to_string(terms, ' & ')::tsquery;
end;
$$;

-- The row of search_configs. Read on its own it lists every item unranked (rank 0); it exists so that the data API
-- knows the function's columns and the relationships behind them (agent_id, scraper_id embeds).
create view config_search_results as
select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
       c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
       c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
       c.changes, c.analysis, 0::real as rank
  from configs c;

-- The items matching a search, with their rank: 2 and more when the name alone holds every word, 1 and more when
-- name, labels and tags do, below 1 when content was needed; the fraction is ts_rank scaled into [0, 1) (32), which
-- orders within a tier. A single SQL statement, so the planner inlines it and the caller's filters, order and limit
-- reach config_items and its indexes.
create function search_configs(search text) returns setof config_search_results language sql stable as $$
  select c.id, c.scraper_id, c.agent_id, c.external_id, c.type, c.config_class, c.name, c.description, c.status,
         c.health, c.ready, c.parent_id, c.path, c.tags, c.labels, c.cost_per_minute, c.cost_total_1d, c.cost_total_7d,
         c.cost_total_30d, c.last_scraped_time, c.delete_reason, c.created_by, c.created_at, c.updated_at, c.deleted_at,
         c.changes, c.analysis, m.rank
    from (select i.id,
                 (case when ts_filter(i.search_vector, '{a}') @@ config_search_query(search) then 2
                       when ts_filter(i.search_vector, '{a,b}') @@ config_search_query(search) then 1
                       else 0 end + ts_rank(i.search_vector, config_search_query(search), 32))::real as rank
            from config_items i
           where i.search_vector @@ config_search_query(search)) m
    join configs c on c.id = m.id
$$;
