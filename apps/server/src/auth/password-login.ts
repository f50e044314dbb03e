import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken } from './session-token';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 5 * 60 * 1000;

export type PasswordCheck = { outcome: 'ok'; identityId: string } | { outcome: 'invalid' } | { outcome: 'rate_limited' };

export interface PasswordLogin {
  check(identifier: string, password: string): Promise<PasswordCheck>;
}

export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

/**
 * Password sign-in with two defences: failures are counted per identifier in the database (so every server process
 * sees them) and block further tries for the window; an unknown identifier still costs one Argon2 verification, so
 * response times do not tell which accounts exist.
 */
export function createPasswordLogin(pool: pg.Pool): PasswordLogin {
  let dummyHash: Promise<string> | undefined;
  const dummy = (): Promise<string> => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

  return {
    async check(identifier, password) {
      const normalized = normalizeIdentifier(identifier);
      const identifierHash = hashToken(normalized);
      const failures = await pool.query<{ n: number }>(
        `select count(*)::int as n from login_failures
          where identifier_hash = $1 and failed_at > now() - make_interval(secs => $2::double precision / 1000)`,
        [identifierHash, LOGIN_FAILURE_WINDOW_MS],
      );
      if ((failures.rows[0]?.n ?? 0) >= LOGIN_FAILURE_LIMIT) return { outcome: 'rate_limited' };

      const credential = await pool.query<{ identity_id: string; hashed: string | null }>(
        `select c.identity_id, c.config->>'hashed_password' as hashed
           from identity_credentials c
           join identities i on i.id = c.identity_id and i.state = 'active'
           join people p on p.id = i.id and p.deleted_at is null
          where c.type = 'password' and c.identifiers @> array[$1]::text[]
          limit 1`,
        [normalized],
      );
      const row = credential.rows[0];
      const hashed = row?.hashed ?? null;
      // The dummy verification's result is irrelevant; only the time it takes matters.
      if (hashed === null) await verifyPassword(await dummy(), password);
      const valid = hashed !== null && (await verifyPassword(hashed, password));
      if (row !== undefined && valid) {
        await pool.query('delete from login_failures where identifier_hash = $1', [identifierHash]);
        return { outcome: 'ok', identityId: row.identity_id };
      }
      await pool.query('insert into login_failures (identifier_hash) values ($1)', [identifierHash]);
      return { outcome: 'invalid' };
    },
  };
}
