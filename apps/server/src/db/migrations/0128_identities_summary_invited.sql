-- The Users screen says "Invited" for an account made by an invitation whose link is still unused (#34 item 19).
-- An invitation stamps its new identity with invited_at; the first credential of any kind (a password, an
-- authenticator, a provider link) clears it. The Users view reads the stamp, never identity_credentials itself: no view
-- the data API serves may read an identity table (security/identity-tables.test.ts). Identities made before this
-- migration, or by any other path, are not invited.
alter table identities add column invited_at timestamptz;

create or replace function identities_clear_invited() returns trigger language plpgsql as $$
begin
  update identities set invited_at = null where id = new.identity_id and invited_at is not null;
  return new;
end;
$$;

create trigger identity_credentials_clear_invited after insert on identity_credentials
  for each row execute function identities_clear_invited();

-- Same columns as 0103, with `invited` added at the end.
create or replace view identities_summary as
select i.id,
       p.name,
       coalesce(p.email, i.traits ->> 'email') as email,
       p.avatar,
       coalesce(array(select r.role from person_roles r where r.person_id = i.id order by r.role), '{}'::text[]) as roles,
       i.state,
       i.created_at,
       i.updated_at,
       i.invited_at is not null as invited
  from identities i
  join people p on p.id = i.id
 where p.deleted_at is null;
