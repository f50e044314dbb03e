import type pg from 'pg';
import { completeFlow, type Flow } from '../shared/flow-store';
import type { Traits } from './registration-form';

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The email is taken when a live person, a password credential or an identity's traits already hold it. */
export async function emailTaken(pool: pg.Pool, email: string): Promise<boolean> {
  const result = await pool.query<{ taken: boolean }>(
    `select exists (select 1 from people where lower(email) = $1 and deleted_at is null)
         or exists (select 1 from identity_credentials where identifiers @> array[$1]::text[])
         or exists (select 1 from identity_verifiable_addresses where value = $1) as taken`,
    [email],
  );
  return result.rows[0]?.taken ?? false;
}

/** Where the verification that follows a registration returns to, when the flow was opened with one. */
export async function saveAfterVerification(pool: pg.Pool, flowId: string, target: string): Promise<void> {
  await pool.query('update self_service_flows set after_verification_return_to = $2 where id = $1', [flowId, target]);
}

export async function afterVerificationOf(pool: pg.Pool, flowId: string): Promise<string | undefined> {
  const result = await pool.query<{ target: string | null }>('select after_verification_return_to as target from self_service_flows where id = $1', [
    flowId,
  ]);
  return result.rows[0]?.target ?? undefined;
}

/** Person, identity, password credential (and admin, for the first person) in one transaction that also completes the flow; null when it was used. */
export async function createIdentity(pool: pg.Pool, flow: Flow, traits: Traits, hashedPassword: string): Promise<string | null> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const person = await client.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', [
      `${traits.first} ${traits.last}`,
      traits.email,
    ]);
    const id = person.rows[0]?.id;
    if (id === undefined) throw new Error('person insert returned no id');
    await client.query('insert into identities (id, traits) values ($1, $2)', [
      id,
      JSON.stringify({ email: traits.email, name: { first: traits.first, last: traits.last } }),
    ]);
    await client.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
      id,
      [traits.email],
      JSON.stringify({ hashed_password: hashedPassword }),
    ]);
    // The first person on a server nobody administers yet becomes its admin, or nobody could ever grant a role; the
    // lock makes two simultaneous first registrations take turns, so only one of them finds no admin.
    await client.query('select pg_advisory_xact_lock(hashtext($1))', ['opsdeck:first-admin']);
    await client.query(
      `insert into person_roles (person_id, role)
       select $1, 'admin' where not exists (
         select 1 from person_roles r join people p on p.id = r.person_id and p.deleted_at is null where r.role = 'admin')`,
      [id],
    );
    if (!(await completeFlow(client, flow.id, id))) {
      await client.query('rollback');
      return null;
    }
    await client.query('commit');
    return id;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
