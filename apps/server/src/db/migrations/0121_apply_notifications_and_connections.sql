-- Notifications applied from Mission Control YAML (kind Notification, issue #32): a namespace, so `npm run apply` finds
-- the row by namespace and name as it does every other kind, and the syntax of the title and template. Mission Control
-- writes Go templates ({{.config.name}}); the console's own notifications keep Liquid ({{ config.name }}). The two
-- cannot be told apart by reading the text, so the row says which one it holds.
alter table notifications add column namespace text not null default 'default';
alter table notifications add column template_syntax text not null default 'liquid'
  check (template_syntax in ('liquid', 'gotemplate'));
create index notifications_namespace_name_idx on notifications (namespace, name) where deleted_at is null;

-- The list reads both: the namespace beside the name, and the syntax when the edit dialog opens an applied row.
create or replace view notifications_summary as
select n.id, n.name, n.title, n.events, n.filter, n.person_id, n.team_id, n.custom_services, n.template,
       n.properties, n.source, n.created_by, n.created_at, n.updated_at, n.deleted_at,
       coalesce(s.pending, 0) as pending, coalesce(s.failed, 0) as failed, coalesce(s.sent, 0) as sent,
       s.avg_duration_ms, s.most_common_error, n.namespace, n.template_syntax
  from notifications n
  left join lateral (
    select (count(*) filter (where h.status in ('pending', 'sending')))::integer as pending,
           (count(*) filter (where h.status = 'failed'))::integer as failed,
           (count(*) filter (where h.status = 'sent'))::integer as sent,
           round(avg(h.duration_millis))::integer as avg_duration_ms,
           mode() within group (order by h.error) filter (where h.error is not null) as most_common_error
      from notification_send_history h
     where h.notification_id = n.id
  ) s on true
 where n.deleted_at is null;

-- Applied connections are changed where they are defined, as the other applied kinds are (0118): the connection
-- routes write this table directly, so the refusal lives in the database. A connection has no runtime columns: any
-- change but the update time changes what it defines, which the guard compares when its trigger passes 'whole-row'.
-- Notifications keep their own guard (0099), which already refuses every console write to a row from another source.
create or replace function guard_applied_source() returns trigger language plpgsql as $$
declare
  changed boolean;
begin
  if not (old.source = 'apply' or old.source like 'gitops:%')
     or coalesce(current_setting('opsdeck.apply_write', true), '') = 'on' then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if tg_op = 'DELETE' then
    changed := true;
  elsif tg_nargs > 0 and tg_argv[0] = 'whole-row' then
    changed := (to_jsonb(new) - 'updated_at') is distinct from (to_jsonb(old) - 'updated_at');
  else
    changed := row(new.name, new.namespace, to_jsonb(new) -> 'spec', new.source, new.deleted_at, to_jsonb(new) -> 'labels', to_jsonb(new) -> 'schedule',
                   to_jsonb(new) -> 'description', to_jsonb(new) -> 'icon')
               is distinct from
               row(old.name, old.namespace, to_jsonb(old) -> 'spec', old.source, old.deleted_at, to_jsonb(old) -> 'labels', to_jsonb(old) -> 'schedule',
                   to_jsonb(old) -> 'description', to_jsonb(old) -> 'icon');
  end if;
  if changed then
    raise exception using
      errcode = 'ODS05',
      message = format('%s %s/%s comes from %s and cannot be changed here', tg_table_name, old.namespace, old.name, old.source),
      detail = 'source',
      hint = 'Change the manifest it was applied from and apply it again (npm run apply), or remove it there and apply with --prune';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

create trigger connections_applied_source_guard before update or delete on connections
  for each row execute function guard_applied_source('whole-row');
