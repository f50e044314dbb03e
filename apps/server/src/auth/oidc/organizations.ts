import type pg from 'pg';
import type { OidcOrganization } from './claims';

/** Either the pool or a client inside a transaction: the queries below read and write the same way through both. */
type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Makes the person's memberships exactly those of the claim. Names are refreshed only from entries that carry one,
 * so a provider sending bare ids for some people does not rename an organization another person's claim named.
 */
export async function syncMemberships(db: Queryable, personId: string, organizations: readonly OidcOrganization[]): Promise<void> {
  const ids = organizations.map((organization) => organization.id);
  if (organizations.length > 0) {
    await db.query(
      `insert into oidc_organizations (id, name)
       select * from unnest($1::text[], $2::text[])
       on conflict (id) do update set name = excluded.name
        where excluded.name <> excluded.id and oidc_organizations.name <> excluded.name`,
      [ids, organizations.map((organization) => organization.name)],
    );
  }
  await db.query('delete from oidc_person_organizations where person_id = $1 and organization_id <> all($2::text[])', [personId, ids]);
  await db.query(
    `insert into oidc_person_organizations (person_id, organization_id)
     select $1, unnest($2::text[]) on conflict do nothing`,
    [personId, ids],
  );
}

/** The organization a new session starts in: the only one, or the last one chosen; null means the person must pick. */
export async function startingOrganization(db: Queryable, personId: string): Promise<{ id: string | null; count: number }> {
  const result = await db.query<{ organization_id: string; chosen_at: string | null; total: number }>(
    `select organization_id, chosen_at, count(*) over ()::int as total
       from oidc_person_organizations where person_id = $1
      order by chosen_at desc nulls last, organization_id
      limit 1`,
    [personId],
  );
  const row = result.rows[0];
  if (row === undefined) return { id: null, count: 0 };
  if (row.total === 1 || row.chosen_at !== null) return { id: row.organization_id, count: row.total };
  return { id: null, count: row.total };
}

export async function setSessionOrganization(db: Queryable, sessionId: string, organizationId: string): Promise<void> {
  await db.query(
    `insert into oidc_session_organizations (session_id, organization_id) values ($1, $2)
     on conflict (session_id) do update set organization_id = excluded.organization_id`,
    [sessionId, organizationId],
  );
}

export interface OrganizationsView {
  organizations: OidcOrganization[];
  /** The session's organization while the person still belongs to it; a membership the provider took away ends it. */
  current: OidcOrganization | null;
}

export async function organizationsOf(db: Queryable, personId: string, sessionId: string): Promise<OrganizationsView> {
  const result = await db.query<{ id: string; name: string; current: boolean }>(
    `select o.id, o.name, exists (select 1 from oidc_session_organizations s where s.session_id = $2 and s.organization_id = o.id) as current
       from oidc_person_organizations m
       join oidc_organizations o on o.id = m.organization_id
      where m.person_id = $1
      order by lower(o.name), o.id`,
    [personId, sessionId],
  );
  const organizations = result.rows.map((row) => ({ id: row.id, name: row.name }));
  const current = result.rows.find((row) => row.current);
  return { organizations, current: current === undefined ? null : { id: current.id, name: current.name } };
}

/**
 * Moves the session into one of the person's organizations and remembers the choice for their next sign-in; false
 * when the person does not belong to it, in which case nothing changes.
 */
export async function switchOrganization(db: Queryable, personId: string, sessionId: string, organizationId: string): Promise<boolean> {
  const chosen = await db.query(
    'update oidc_person_organizations set chosen_at = now() where person_id = $1 and organization_id = $2',
    [personId, organizationId],
  );
  if (chosen.rowCount !== 1) return false;
  await setSessionOrganization(db, sessionId, organizationId);
  return true;
}
