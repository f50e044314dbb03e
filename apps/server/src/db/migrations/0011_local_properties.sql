-- Properties whose source is 'local' come from the server's properties file, not from users: nobody may change or
-- remove them through the API, and nobody may create one. Only the server, when it loads the file, sets
-- opsdeck.loading_local_properties for its own transaction.
create or replace function guard_local_properties() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('opsdeck.loading_local_properties', true), '') = 'on' then
    return coalesce(new, old);
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.source = 'local' then
    raise exception 'Cannot edit local feature flags' using errcode = 'P0001', hint = 'Change it in the server''s properties file';
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.source = 'local' then
    raise exception 'The source local is reserved for the server''s properties file' using errcode = 'P0001';
  end if;
  return coalesce(new, old);
end;
$$;

create trigger properties_guard_local
  before insert or update or delete on properties
  for each row execute function guard_local_properties();
