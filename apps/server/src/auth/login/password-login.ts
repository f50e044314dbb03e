import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { createLoginThrottle, PAIR_FAILURE_LIMIT } from '../shared/login-throttle';
import { normalizeIdentifier } from '../shared/form-text';
import { hashPassword, verifyPassword } from '../shared/passwords';

export { LOGIN_FAILURE_WINDOW_MS } from '../shared/login-throttle';
export const LOGIN_FAILURE_LIMIT = PAIR_FAILURE_LIMIT;

export type PasswordCheck =
  | { outcome: 'ok'; identityId: string }
  | { outcome: 'invalid' }
  | { outcome: 'rate_limited'; retryAfterSeconds: number };

export interface PasswordLogin {
  /** `address` is the client address the attempt came from (request-info.ts `clientAddress`). */
  check(identifier: string, password: string, address: string): Promise<PasswordCheck>;
}

/**
 * Password sign-in with two defences: failures are throttled per (identifier, address) and per address, with only a
 * bounded delay for the identifier's other addresses (login-throttle.ts, ADR 0011); an unknown identifier still costs
 * one Argon2 verification, so response times do not tell which accounts exist.
 */
export function createPasswordLogin(pool: pg.Pool, secretKey: Buffer): PasswordLogin {
  const throttle = createLoginThrottle(pool, secretKey);
  let dummyHash: Promise<string> | undefined;
  const dummy = (): Promise<string> => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

  return {
    async check(identifier, password, address) {
      const normalized = normalizeIdentifier(identifier);
      const verdict = await throttle.assess(normalized, address);
      if (verdict.outcome === 'refused') return { outcome: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds };
      // Held before the verification, whatever its result, so the delay says nothing about the password.
      if (verdict.delayMs > 0) await sleep(verdict.delayMs);

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
        await throttle.recordSuccess(normalized, address);
        return { outcome: 'ok', identityId: row.identity_id };
      }
      await throttle.recordFailure(normalized, address);
      return { outcome: 'invalid' };
    },
  };
}
