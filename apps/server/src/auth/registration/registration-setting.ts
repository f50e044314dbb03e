import type pg from 'pg';

/** The property (Feature Flags screen) that opens self-service registration on a server that already has people. */
export const REGISTRATION_PROPERTY = 'identity.registration.enabled';

/**
 * Registration is open on a server nobody can sign in to yet (the first person registers), and otherwise only when an
 * admin sets the property to 'true'; hosted mode never offers it, the provider owns sign-up.
 */
export async function registrationEnabled(pool: pg.Pool, hosted: boolean): Promise<boolean> {
  if (hosted) return false;
  const result = await pool.query<{ value: string | null; has_people: boolean }>(
    `select (select value from properties where name = $1) as value,
            exists (select 1 from identity_credentials where type = 'password') as has_people`,
    [REGISTRATION_PROPERTY],
  );
  const row = result.rows[0];
  if (row === undefined) return false;
  return row.value === 'true' || !row.has_people;
}
