-- A notification defined elsewhere (a CRD, GitOps) is changed where it is defined: a console user's PATCH or DELETE
-- of one would be overwritten at the next sync, or silently drop alerts its owners rely on. The save rules see only
-- the request body, not the rows a PATCH or DELETE filter reaches, so the refusal lives here, raised with SQLSTATE
-- ODN01, which the API answers as 400 OD_NOTIFICATION_SOURCE. Only writes through the data API set
-- opsdeck.console_write; the syncs that own such rows do not, and pass.
create or replace function guard_notification_source() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('opsdeck.console_write', true), '') = 'on' and coalesce(old.source, '') not in ('', 'UI') then
    raise exception using
      errcode = 'ODN01',
      message = format('This notification comes from %s and cannot be changed here', old.source),
      detail = 'source';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger notifications_source_guard before update or delete on notifications
  for each row execute function guard_notification_source();
