-- The Users screen says "Invited" for an account nobody has signed in to yet (#34 item 19): an identity without any
-- credential (no password, authenticator or provider link) was made by an invitation whose link is still unused.
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
       not exists (select 1 from identity_credentials c where c.identity_id = i.id) as invited
  from identities i
  join people p on p.id = i.id
 where p.deleted_at is null;
