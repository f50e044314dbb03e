-- Current definitions: views/600_audit_log_append_only.sql (applied after the numbered migrations, ADR 0064). What this
-- file defines of them is history a fresh database replays: change them there.
-- #31, holes 2 and 4: an editor set audit.retention.days to 0.00001, moved the purge's next run into the past and
-- emptied the audit log; another turned on public registration and pointed every notification link at their own site.
-- The data API's save rules see only the request body, not the rows a filtered PATCH or DELETE reaches, so these
-- refusals live in triggers. They act on writes through the data API alone (opsdeck.console_write), where
-- opsdeck.roles holds the roles the request acts with (an API token's capped ones); the server's own writes (the
-- properties file, the schedulers, seeds) pass.

-- Mirrors ADMIN_ONLY_PROPERTY_PREFIXES (platform/admin-only-properties.ts); security-properties.test.ts compares them.
create or replace function property_needs_admin(property text) returns boolean language sql immutable as $$
  select exists (
    select 1
      from unnest(array[
        'identity.', 'auth.', 'oidc.', 'registration.', 'session.', 'sessions.', 'security.', 'public.', 'mail.', 'smtp.',
        'email.', 'audit.', 'retention.'
      ]) as prefix
     where starts_with(lower(property), prefix)
  )
$$;

create or replace function console_caller_is_admin() returns boolean language sql stable as $$
  select 'admin' = any (string_to_array(coalesce(current_setting('opsdeck.roles', true), ''), ','))
$$;

-- ODS01 is answered as 403 OD_PROPERTY_ADMIN_ONLY, ODS02 as 400 OD_RETENTION_DAYS (platform/errors.ts). Retention
-- ages are whole days from 1 to 36500 (RETENTION_DAYS_* in platform/admin-only-properties.ts).
create or replace function guard_admin_properties() returns trigger language plpgsql as $$
declare
  touched text;
  days text;
begin
  if coalesce(current_setting('opsdeck.console_write', true), '') <> 'on' then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op <> 'INSERT' and property_needs_admin(old.name) then
    touched := old.name;
  elsif tg_op <> 'DELETE' and property_needs_admin(new.name) then
    touched := new.name;
  end if;
  if touched is not null and not console_caller_is_admin() then
    raise exception using
      errcode = 'ODS01',
      message = format('Only administrators may create, change or delete the property %s', touched),
      detail = touched,
      hint = 'Properties that control sign-in, sessions, mail, public links, security guards and retention are admin-only';
  end if;
  if tg_op <> 'DELETE' and lower(new.name) ~ '^(audit\.)?retention\.([a-z0-9_]+\.)*days$' then
    days := btrim(coalesce(new.value, ''));
    if not (case when days ~ '^[0-9]{1,5}$' then days::integer between 1 and 36500 else false end) then
      raise exception using
        errcode = 'ODS02',
        message = format('%s must be a whole number of days from 1 to 36500', new.name),
        detail = new.name,
        hint = 'Write the age in days, e.g. 365; a day is the shortest time records are kept';
    end if;
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger properties_admin_guard before insert or update or delete on properties
  for each row execute function guard_admin_properties();

-- The schedules of the jobs that delete data (retention, audit_retention): moving one into the past runs the deletion
-- at once. ODS03 is answered as 403 OD_MAINTENANCE_JOB_ADMIN_ONLY.
create or replace function guard_maintenance_jobs() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('opsdeck.console_write', true), '') = 'on' and not console_caller_is_admin() then
    raise exception using
      errcode = 'ODS03',
      message = 'Only administrators may change the schedules of maintenance jobs',
      detail = coalesce(new.name, old.name),
      hint = 'These jobs delete old records; the server schedules them itself';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger maintenance_jobs_admin_guard before insert or update or delete on maintenance_jobs
  for each row execute function guard_maintenance_jobs();

-- The purge keeps what a day-long floor promises even if its caller is wrong: rows younger than a day and the rows
-- that record earlier purges are never deleted, so wiping the log leaves at least a day of trail and the record of
-- every purge.
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
