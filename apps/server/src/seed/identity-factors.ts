import type pg from 'pg';
import type { Role } from '@opsdeck/shared';
import { linkTotp, newTotpSecret } from '../auth/factors/totp';

/**
 * A demo person who signs in with a password and then a TOTP code, to try the second step. Not one of the role logins:
 * every demo sign-in and the e2e setup use those with the password alone. The key is made at seed time and announced
 * with the demo logins on the first start (main.ts), for entering into an authenticator app.
 */
const TWO_FACTOR_DEMO = { role: 'admin', email: '2fa@opsdeck.local', name: 'Tess Twofactor' } as const satisfies {
  role: Role;
  email: string;
  name: string;
};

export async function seedIdentityFactorsDemo(
  client: pg.PoolClient,
  options: { secretKey: Buffer; hashedPassword: string },
): Promise<{ role: Role; email: string; name: string; totpSecret: string }> {
  const { email, name, role } = TWO_FACTOR_DEMO;
  const person = await client.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', [name, email]);
  const id = person.rows[0]?.id;
  if (id === undefined) throw new Error('person insert returned no id');
  const [first, last] = name.split(' ');
  await client.query('insert into identities (id, traits) values ($1, $2)', [id, JSON.stringify({ email, name: { first, last } })]);
  await client.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
    id,
    [email],
    JSON.stringify({ hashed_password: options.hashedPassword }),
  ]);
  const totpSecret = newTotpSecret();
  await linkTotp(client, options.secretKey, id, totpSecret);
  await client.query('insert into person_roles (person_id, role) values ($1, $2)', [id, role]);
  return { role, email, name, totpSecret };
}
