-- audit_log_append_only: keeps audit_log append-only (triggers of 0105, before update, delete and truncate).
-- History: 0105 0109
-- Old rows leave only through the retention purge, which sets opsdeck.audit_purge. Even then the purge keeps what a
-- day-long floor promises if its caller is wrong: rows younger than a day and the rows that record earlier purges are
-- never deleted, so wiping the log leaves at least a day of trail and the record of every purge.
create or replace function audit_log_append_only() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('opsdeck.audit_purge', true) = 'on' then
    if old.at > now() - interval '1 day' or (old.via = 'system' and old.action = 'purge') then
      raise exception 'audit_log keeps rows younger than a day and the records of purges'
        using errcode = 'ODAU1', hint = 'The purge deletes only rows older than audit.retention.days (at least 1)';
    end if;
    return old;
  end if;
  raise exception 'audit_log is append-only: % is not allowed', tg_op
    using errcode = 'ODAU1', hint = 'Old rows leave only through the retention purge (property audit.retention.days)';
end;
$$;
