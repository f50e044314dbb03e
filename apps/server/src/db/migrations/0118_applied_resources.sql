-- Resources applied from manifests (POST /api/apply, npm run apply, a GitOps folder; ADR 0074) are changed where they
-- are defined: a console edit would be overwritten by the next apply, or silently reverted by the next reconcile. Their
-- source is `apply` or `gitops:<folder>`. The console reaches these tables through the data API and through domain
-- routes (the canary routes write without naming a person), and the save rules see only the request body, not the
-- rows a PATCH or DELETE filter reaches, so the refusal lives here: every write that changes what such a row defines
-- (name, namespace, spec, labels, schedule, description, icon, source, deletion) is refused unless the apply itself
-- makes it (opsdeck.apply_write, set inside its transaction). Runtime columns the server keeps up to date pass.
-- Raised with SQLSTATE ODS05, which the API answers as 400 OD_APPLIED_READ_ONLY.
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
  else
    changed := row(new.name, new.namespace, new.spec, new.source, new.deleted_at, to_jsonb(new) -> 'labels', to_jsonb(new) -> 'schedule',
                   to_jsonb(new) -> 'description', to_jsonb(new) -> 'icon')
               is distinct from
               row(old.name, old.namespace, old.spec, old.source, old.deleted_at, to_jsonb(old) -> 'labels', to_jsonb(old) -> 'schedule',
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

create trigger canaries_applied_source_guard before update or delete on canaries
  for each row execute function guard_applied_source();
create trigger config_scrapers_applied_source_guard before update or delete on config_scrapers
  for each row execute function guard_applied_source();
create trigger playbooks_applied_source_guard before update or delete on playbooks
  for each row execute function guard_applied_source();
create trigger topologies_applied_source_guard before update or delete on topologies
  for each row execute function guard_applied_source();

-- What each applied row was last applied from, as an HMAC of the document under the server's key (never the document,
-- which may hold secrets): a re-apply of the same document is `unchanged` and writes nothing, even where sealing a
-- secret would make the stored spec differ byte for byte. It lives outside `public`, so the data API (which introspects
-- `public` alone) never reaches it: no console write could make a changed document look applied.
create schema apply_state;
create table apply_state.applied_resources (
  table_name text not null,
  row_id uuid not null,
  source text not null,
  digest text not null,
  applied_at timestamptz not null default now(),
  primary key (table_name, row_id)
);

-- The GitOps folder reconcile (security.gitops.folder), leased like the retention cleanup.
insert into maintenance_jobs (name, next_runtime) values ('gitops', now());
