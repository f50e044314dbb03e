-- Readers who may not write a resource get its sealed secrets as {"$encrypted": ""} (issue #31): the envelope still
-- says that a secret is set, the ciphertext stays on the server, and the empty envelope opens nowhere if it is ever
-- written back. The data API reads every column that can hold an envelope through redact_secret_envelopes for such
-- readers (data-api/plan/sealed-columns.ts), so selects, embeds, views, JSON paths, casts, filters and ordering all
-- see the redacted value. Both names hold 'secret', so the data API's naming rule keeps them out of /api/db/rpc
-- (resource-map.ts). PostgreSQL 15 syntax: it also runs on PGlite.
--
-- It works on jsonb's text form, which needs no recursion and is canonical: an object key follows '{' or ', ' and is
-- written "key": value, and a double quote inside a string is always escaped. So '"$encrypted": "' preceded by '{' or
-- ', ' is always the key $encrypted with a string value, never text inside another string nor a key that merely ends
-- in $encrypted. The value is skipped with its escapes, so one holding \" or \\ cannot end it early and break the JSON.
-- A loop of strpos rather than one regexp_replace over the whole text: the regular expression engine steps through
-- every character, and the loop redacted 1,000 sealed specs about a quarter faster.
create function redact_secret_envelopes_in_text(document text) returns jsonb language plpgsql immutable strict parallel safe as $$
declare
  marker constant text := '"$encrypted": "';
  rest text := document;
  done text := '';
  found int := strpos(rest, marker);
begin
  while found > 0 loop
    done := done || left(rest, found - 1);
    rest := substr(rest, found + length(marker));
    if right(done, 1) = '{' or right(done, 2) = ', ' then
      rest := substr(rest, length(substring(rest from '^(?:[^"\\]|\\.)*')) + 1);
    end if;
    done := done || marker;
    found := strpos(rest, marker);
  end loop;
  return (done || rest)::jsonb;
end
$$;

-- Inlined into the query, so a value without an envelope (most labels, most specs) costs one strpos and no call.
create function redact_secret_envelopes(value jsonb) returns jsonb language sql immutable parallel safe as $$
  select case when strpos(value::text, '"$encrypted": "') = 0 then value else redact_secret_envelopes_in_text(value::text) end
$$;

-- A json column (a view may compute one) goes through jsonb's canonical form first.
create function redact_secret_envelopes(value json) returns json language sql immutable parallel safe as $$
  select redact_secret_envelopes(value::jsonb)::json
$$;
