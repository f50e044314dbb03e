import type pg from 'pg';
import { z } from 'zod';
import { hashPassword } from '../shared/passwords';
import { normalizeIdentifier } from '../shared/form-text';

/** The profile a settings flow edits: the identity's traits, mirrored into the person record the console shows. */
export interface Profile {
  email: string;
  first: string;
  last: string;
}

export const MAX_NAME_LENGTH = 100;
const UNIQUE_VIOLATION = '23505';
// Deliberately loose: one @, something either side, a dot in the domain, no spaces. The mail itself proves the rest.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return value.length <= 320 && EMAIL_SHAPE.test(value);
}

const traitsSchema = z.object({
  email: z.string().optional(),
  name: z.object({ first: z.string().optional(), last: z.string().optional() }).partial().optional(),
});

export async function readProfile(pool: pg.Pool, identityId: string): Promise<Profile> {
  const result = await pool.query<{ traits: unknown; name: string; email: string | null }>(
    'select i.traits, p.name, p.email from identities i join people p on p.id = i.id where i.id = $1',
    [identityId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('the identity of a live session has no person');
  const traits = traitsSchema.safeParse(row.traits);
  const name = traits.success ? traits.data.name : undefined;
  // Traits written before names were split (or by hand) may lack them; the person's display name is the fallback.
  const [first = '', ...rest] = row.name.split(' ');
  return {
    email: (traits.success ? traits.data.email : undefined) ?? row.email ?? '',
    first: name?.first ?? first,
    last: name?.last ?? rest.join(' '),
  };
}

/** Whether another live person already has this address (the people table's unique index is case-insensitive). */
export async function emailTaken(pool: pg.Pool, identityId: string, email: string): Promise<boolean> {
  const result = await pool.query('select 1 from people where lower(email) = lower($1) and deleted_at is null and id <> $2', [email, identityId]);
  return (result.rowCount ?? 0) > 0;
}

/**
 * Writes the traits, the person's name and email, and the password credential's identifier in one transaction, so
 * the new address signs in at once and the old one no longer does. False when, since the check, another person took
 * the address (the unique index refused it).
 */
export async function saveProfile(pool: pg.Pool, identityId: string, profile: Profile): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `update identities set traits = traits || jsonb_build_object('email', $2::text, 'name', jsonb_build_object('first', $3::text, 'last', $4::text))
        where id = $1`,
      [identityId, profile.email, profile.first, profile.last],
    );
    await client.query('update people set name = $2, email = $3 where id = $1', [
      identityId,
      `${profile.first} ${profile.last}`.trim(),
      profile.email,
    ]);
    await client.query(`update identity_credentials set identifiers = array[$2::text] where identity_id = $1 and type = 'password'`, [
      identityId,
      normalizeIdentifier(profile.email),
    ]);
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
    throw error;
  } finally {
    client.release();
  }
}

/** Sets the password, creating the credential for a person who had none (an invited one, or one from recovery). */
export async function savePassword(pool: pg.Pool, identityId: string, email: string, password: string): Promise<void> {
  const hashed = await hashPassword(password);
  await pool.query(
    `insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', array[$2::text], $3)
     on conflict (identity_id, type) do update set config = excluded.config, identifiers = excluded.identifiers`,
    [identityId, normalizeIdentifier(email), JSON.stringify({ hashed_password: hashed })],
  );
}
