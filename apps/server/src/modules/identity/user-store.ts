import type pg from 'pg';
import { effectiveRoles, type Role } from '@opsdeck/shared';
import { inTransaction } from '../../db/transaction';

export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
}

export interface InvitedUser {
  id: string;
  name: string;
  /** True when the e-mail belonged to a person already, who was only given the role. */
  existing: boolean;
}

async function livePersonByEmail(client: pg.PoolClient, email: string): Promise<{ id: string; name: string } | null> {
  const result = await client.query<{ id: string; name: string }>(
    'select id, name from people where lower(email) = lower($1) and deleted_at is null for update',
    [email],
  );
  return result.rows[0] ?? null;
}

/** The traits a Kratos identity of the default schema holds, as the registration flow writes them. */
function traitsOf(user: Pick<NewUser, 'email' | 'firstName' | 'lastName'>): string {
  return JSON.stringify({ email: user.email, name: { first: user.firstName, last: user.lastName } });
}

/**
 * Creates the person, their identity (without any credential: the invitation link lets them set a password) and the
 * role, or, when a live person already has this e-mail, gives them the role and an identity if they lack one. A
 * concurrent invitation of the same address finds the person the other one made (the insert skips on the unique
 * e-mail) and takes the existing path.
 */
export async function createInvitedUser(pool: pg.Pool, user: NewUser): Promise<InvitedUser> {
  return inTransaction(pool, async (client) => {
    let existing = await livePersonByEmail(client, user.email);
    let created = false;
    if (existing === null) {
      const name = `${user.firstName} ${user.lastName}`;
      const inserted = await client.query<{ id: string }>('insert into people (name, email) values ($1, $2) on conflict do nothing returning id', [
        name,
        user.email,
      ]);
      const id = inserted.rows[0]?.id;
      if (id === undefined) existing = await livePersonByEmail(client, user.email);
      else {
        existing = { id, name };
        created = true;
      }
    }
    if (existing === null) throw new Error('a person with this e-mail was neither found nor created');
    // A new identity is stamped invited until its first credential (migration 0128); an existing one keeps its state.
    await client.query('insert into identities (id, traits, invited_at) values ($1, $2::jsonb, now()) on conflict (id) do nothing', [existing.id, traitsOf(user)]);
    await client.query('insert into person_roles (person_id, role) values ($1, $2) on conflict do nothing', [existing.id, user.role]);
    return { id: existing.id, name: existing.name, existing: !created };
  });
}

/**
 * Takes back an invitation whose mail could not be sent: the person was made a moment ago and nothing points at them
 * yet, so they are removed outright (their identity and roles go with them) and the address can be invited again.
 */
export async function removeInvitedUser(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('delete from people where id = $1', [id]);
}

/**
 * Makes `roles` the person's roles: those not listed are removed, missing ones added, in one transaction. Removing the
 * last active administrator's admin role is refused by the database guard (SQLSTATE ODA01, 409 OD_LAST_ADMIN), which
 * rolls the whole change back. Returns the roles the person holds afterwards, or null for no such live person.
 */
export async function replaceRoles(pool: pg.Pool, id: string, roles: readonly Role[]): Promise<Role[] | null> {
  return inTransaction(pool, async (client) => {
    const person = await client.query('select 1 from people where id = $1 and deleted_at is null for update', [id]);
    if (person.rowCount === 0) return null;
    await client.query('delete from person_roles where person_id = $1 and not (role = any($2::text[]))', [id, roles]);
    await client.query('insert into person_roles (person_id, role) select $1, unnest($2::text[]) on conflict do nothing', [id, roles]);
    const result = await client.query<{ role: string }>('select role from person_roles where person_id = $1 order by role', [id]);
    return effectiveRoles(result.rows.map((row) => row.role));
  });
}
