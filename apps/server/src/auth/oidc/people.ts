import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { LAST_ADMIN_SQLSTATE } from '../../platform/errors';
import type { OidcProfile } from './claims';
import { startingOrganization, syncMemberships } from './organizations';

export type SignInRefusal = 'identity_inactive' | 'identity_deleted';

export type SignInOutcome =
  | { outcome: 'ok'; personId: string; organizationCount: number; organizationId: string | null }
  | { outcome: 'refused'; reason: SignInRefusal };

interface MatchRow {
  id: string;
  deleted: boolean;
  state: 'active' | 'inactive' | null;
}

/** `issuer:subject`, the one identifier of a person at a provider that never changes (an email address may). */
export function credentialIdentifier(profile: Pick<OidcProfile, 'issuer' | 'subject'>): string {
  return `${profile.issuer}:${profile.subject}`;
}

function isLastAdminRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === LAST_ADMIN_SQLSTATE;
}

/**
 * The person this provider account signs in as: the one already linked to it, else the one with its email address
 * (compared without case), of whom a live one wins over a deleted one. A second account at the provider with the
 * same address (the provider re-created the user) joins the same person: in hosted mode the provider decides who
 * an address belongs to, and the roles follow its claim either way.
 */
async function findPerson(db: pg.PoolClient, profile: OidcProfile): Promise<MatchRow | null> {
  const linked = await db.query<MatchRow>(
    `select p.id, p.deleted_at is not null as deleted, i.state
       from identity_credentials c
       join people p on p.id = c.identity_id
       left join identities i on i.id = p.id
      where c.type = 'oidc' and c.identifiers @> array[$1::text]
      limit 1`,
    [credentialIdentifier(profile)],
  );
  if (linked.rows[0] !== undefined) return linked.rows[0];
  const byEmail = await db.query<MatchRow>(
    `select p.id, p.deleted_at is not null as deleted, i.state
       from people p
       left join identities i on i.id = p.id
      where lower(p.email) = lower($1)
      order by (p.deleted_at is null) desc, p.created_at
      limit 1`,
    [profile.email],
  );
  return byEmail.rows[0] ?? null;
}

function traitsOf(profile: OidcProfile): string {
  return JSON.stringify({ email: profile.email, name: { first: profile.firstName, last: profile.lastName } });
}

async function createPerson(db: pg.PoolClient, profile: OidcProfile): Promise<string> {
  const inserted = await db.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', [profile.name, profile.email]);
  const id = inserted.rows[0]?.id;
  if (id === undefined) throw new Error('person insert returned no id');
  await db.query('insert into identities (id, traits) values ($1, $2)', [id, traitsOf(profile)]);
  return id;
}

/** The provider owns the profile in hosted mode, so its name and address replace ours at every sign-in. */
async function refreshPerson(db: pg.PoolClient, personId: string, profile: OidcProfile, hasIdentity: boolean): Promise<void> {
  await db.query('update people set name = $2 where id = $1 and name is distinct from $2', [personId, profile.name]);
  // Another live person may hold the new address already; the unique index would refuse it, so the old one stays.
  await db.query(
    `update people set email = $2
      where id = $1 and email is distinct from $2
        and not exists (select 1 from people o where o.id <> $1 and o.deleted_at is null and lower(o.email) = lower($2))`,
    [personId, profile.email],
  );
  if (hasIdentity) await db.query('update identities set traits = traits || $2::jsonb where id = $1', [personId, traitsOf(profile)]);
  else await db.query('insert into identities (id, traits) values ($1, $2)', [personId, traitsOf(profile)]);
}

async function linkCredential(db: pg.PoolClient, personId: string, profile: OidcProfile): Promise<void> {
  await db.query(
    `insert into identity_credentials (identity_id, type, identifiers, config)
     values ($1, 'oidc', array[$2::text], jsonb_build_object('providers', jsonb_build_array(jsonb_build_object('provider', $3::text, 'subject', $4::text))))
     on conflict (identity_id, type) do update
       set identifiers = (select array_agg(distinct known) from unnest(identity_credentials.identifiers || excluded.identifiers) as known),
           config = excluded.config`,
    [personId, credentialIdentifier(profile), profile.issuer, profile.subject],
  );
}

/**
 * The roles become exactly the claim's. The one exception is the database's last-administrator guard: taking the
 * admin role from the only active administrator would leave nobody able to administer the console, so that role is
 * kept (and the log says so) until the provider names another administrator who signs in.
 */
async function syncRoles(db: pg.PoolClient, personId: string, roles: readonly string[], log: FastifyBaseLogger): Promise<void> {
  await db.query('savepoint oidc_roles');
  try {
    await db.query('delete from person_roles where person_id = $1 and role <> all($2::text[])', [personId, roles]);
    await db.query('release savepoint oidc_roles');
  } catch (error) {
    if (!isLastAdminRefusal(error)) throw error;
    await db.query('rollback to savepoint oidc_roles');
    await db.query(`delete from person_roles where person_id = $1 and role <> all($2::text[]) and role <> 'admin'`, [personId, roles]);
    log.warn({ personId }, 'the identity provider no longer names the last administrator as admin; the admin role was kept');
  }
  await db.query('insert into person_roles (person_id, role) select $1, unnest($2::text[]) on conflict do nothing', [personId, roles]);
}

/**
 * Finds or creates the person for a validated provider sign-in and brings their roles and organizations in line with
 * the claims, in one transaction. A deactivated or deleted person stays out: the console's decision to remove
 * someone outlives the provider still vouching for them.
 */
export async function signInPerson(pool: pg.Pool, profile: OidcProfile, log: FastifyBaseLogger): Promise<SignInOutcome> {
  const db = await pool.connect();
  try {
    await db.query('begin');
    const match = await findPerson(db, profile);
    let refusal: SignInRefusal | null = null;
    if (match?.deleted === true) refusal = 'identity_deleted';
    else if (match?.state === 'inactive') refusal = 'identity_inactive';
    if (refusal !== null) {
      await db.query('rollback');
      return { outcome: 'refused', reason: refusal };
    }

    let personId: string;
    if (match === null) {
      personId = await createPerson(db, profile);
    } else {
      personId = match.id;
      await refreshPerson(db, personId, profile, match.state !== null);
    }
    await linkCredential(db, personId, profile);
    await syncRoles(db, personId, profile.roles, log);
    await syncMemberships(db, personId, profile.organizations);
    const starting = await startingOrganization(db, personId);
    await db.query('commit');
    return { outcome: 'ok', personId, organizationCount: starting.count, organizationId: starting.id };
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    db.release();
  }
}
