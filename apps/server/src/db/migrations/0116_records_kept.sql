-- Job history is the record of what the server's jobs did and the event queue holds what is still to be delivered
-- (notifications, playbook triggers). Both fell to the `database` resource, which editors may write: an editor could
-- delete the job runs that showed their change failing a scraper, forge runs under the server's job names, or delete a
-- pending check.failed event before its notification went out. Through the data API only administrators may write
-- them now; the server's own writes (workers, retention, the event-queue retry route) do not set
-- opsdeck.console_write and pass, and so do rows written by triggers and foreign-key actions of an allowed write (the
-- domain events a check update queues, an agent's runs keeping their history when the agent is deleted): only a
-- statement the request itself aimed at these tables is judged. ODS04 is answered as 403 OD_RECORD_ADMIN_ONLY
-- (platform/errors.ts).
create or replace function guard_kept_records() returns trigger language plpgsql as $$
begin
  if pg_trigger_depth() = 1 and coalesce(current_setting('opsdeck.console_write', true), '') = 'on' and not console_caller_is_admin() then
    raise exception using
      errcode = 'ODS04',
      message = format('Only administrators may write %s rows', tg_table_name),
      detail = tg_table_name,
      hint = 'The server writes job history and queued events itself; retry failed events with Retry on the Event Queue page';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger job_history_kept before insert or update or delete on job_history
  for each row execute function guard_kept_records();

create trigger event_queue_kept before insert or update or delete on event_queue
  for each row execute function guard_kept_records();
