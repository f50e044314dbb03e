import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { deriveSubkey } from '../../platform/secrets';
import { ADDRESS_FAILURE_LIMIT, addressKey, LOGIN_FAILURE_WINDOW_MS, PAIR_FAILURE_LIMIT } from './login-throttle';

/** The flows throttled here; each keeps its own counts, so a burst of wrong recovery codes never blocks a sign-in. */
export type FlowScope = 'registration' | 'recovery' | 'verification';

export const FLOW_THROTTLE_WINDOW_MS = LOGIN_FAILURE_WINDOW_MS;
/** Failures (wrong codes, refused registrations) as for sign-in: per identifier and client address, and per address. */
export const FLOW_PAIR_FAILURE_LIMIT = PAIR_FAILURE_LIMIT;
export const FLOW_ADDRESS_FAILURE_LIMIT = ADDRESS_FAILURE_LIMIT;
/**
 * Failures for one identifier (the account's address) from all client addresses together that cost nothing; from the
 * next one on, every attempt for it is held before it is checked, however many addresses the guesses come from.
 */
export const FLOW_ACCOUNT_FAILURE_BUDGET = FLOW_PAIR_FAILURE_LIMIT;
export const FLOW_ACCOUNT_DELAY_STEP_MS = 500;
/** The longest hold: the owner with the right code waits at most this long, and is never refused for others' failures. */
export const FLOW_ACCOUNT_MAX_DELAY_MS = 5000;
/** Beyond this many failures the hold is already at its cap, so counting further is wasted work. */
const ACCOUNT_COUNT_CAP = FLOW_ACCOUNT_FAILURE_BUDGET + FLOW_ACCOUNT_MAX_DELAY_MS / FLOW_ACCOUNT_DELAY_STEP_MS;
/** Mails asked for one recipient from one client address within the window. */
export const MAIL_PAIR_LIMIT = 5;
/** Mails asked for one recipient from anywhere: bounds what strangers can make the server send to one inbox. */
export const MAIL_RECIPIENT_LIMIT = 15;
/** Mails asked from one client address, to anybody. */
export const MAIL_ADDRESS_LIMIT = 30;

export type FlowThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface FlowThrottle {
  /**
   * Whether this client address may try again for this identifier; refused after too many failures of this address,
   * and held (never refused) once the identifier's failures from everywhere pass FLOW_ACCOUNT_FAILURE_BUDGET.
   */
  assess(identifier: string, address: string): Promise<FlowThrottleVerdict>;
  recordFailure(identifier: string, address: string): Promise<void>;
  /** Clears this address's failures for this identifier only, as a successful sign-in does. */
  recordSuccess(identifier: string, address: string): Promise<void>;
  /**
   * Whether a mail to `identifier` may be asked for from this client address; an allowed request is counted at once.
   * Asked for every request, whether the recipient has an account or not, so a refusal says nothing about accounts.
   */
  admitMail(identifier: string, address: string): Promise<FlowThrottleVerdict>;
}

/**
 * The hold of one attempt after `accountFailures` failures for its identifier within the window: nothing within the
 * budget, then one step per failure, up to the cap. It grows with the account's failures, not the client's, so a
 * guesser gains nothing by spreading guesses over many addresses.
 */
export function accountDelayFor(accountFailures: number): number {
  const excess = accountFailures - FLOW_ACCOUNT_FAILURE_BUDGET + 1;
  return excess <= 0 ? 0 : Math.min(FLOW_ACCOUNT_MAX_DELAY_MS, excess * FLOW_ACCOUNT_DELAY_STEP_MS);
}

/** Keyed like login-throttle.ts, under a sub-key of its own: the rows say nothing about who asked, from where. */
export function flowThrottleHashes(secretKey: Buffer): { identifier(value: string): string; address(value: string): string } {
  const key = deriveSubkey(secretKey, 'identity-flow-throttle');
  const hash = (kind: string, value: string): string => createHmac('sha256', key).update(`${kind}\u0000${value}`).digest('hex');
  return { identifier: (value) => hash('identifier', value), address: (value) => hash('address', addressKey(value)) };
}

const WINDOW = `happened_at > now() - make_interval(secs => $4::double precision / 1000)`;

/**
 * Counts live in identity_flow_events, shared by every server process. As for sign-in, a refused attempt is not
 * recorded, and an owner trying from an address without failures of its own is never refused for the failures of
 * others, only held up to FLOW_ACCOUNT_MAX_DELAY_MS. Counts and records are separate statements, so parallel requests can overshoot a limit by those in flight.
 */
export function createFlowThrottle(pool: pg.Pool, secretKey: Buffer, scope: FlowScope): FlowThrottle {
  const hashes = flowThrottleHashes(secretKey);

  async function counts(
    kind: 'failure' | 'mail',
    identifierHash: string,
    addressHash: string,
    limits: { pair: number; identifier: number; address: number },
  ): Promise<{ pair: number; identifier: number; address: number }> {
    // Each count stops at its limit, so a flood of rows never makes the check slow.
    const result = await pool.query<{ pair: number; identifier: number; address: number }>(
      `select
         (select count(*) from (select 1 from identity_flow_events
            where scope = $1 and kind = $2 and identifier_hash = $3 and address_hash = $5 and ${WINDOW} limit $6) p)::int as pair,
         (select count(*) from (select 1 from identity_flow_events
            where scope = $1 and kind = $2 and identifier_hash = $3 and ${WINDOW} limit $7) i)::int as identifier,
         (select count(*) from (select 1 from identity_flow_events
            where scope = $1 and kind = $2 and address_hash = $5 and ${WINDOW} limit $8) a)::int as address`,
      [scope, kind, identifierHash, FLOW_THROTTLE_WINDOW_MS, addressHash, limits.pair, limits.identifier, limits.address],
    );
    return result.rows[0] ?? { pair: 0, identifier: 0, address: 0 };
  }

  /** Seconds until the oldest event that decided the refusal leaves the window. */
  async function retryAfter(kind: 'failure' | 'mail', identifierHash: string | null, addressHash: string | null): Promise<number> {
    const result = await pool.query<{ seconds: number | null }>(
      `select ceil(extract(epoch from min(happened_at) + make_interval(secs => $4::double precision / 1000) - now()))::int as seconds
         from identity_flow_events
        where scope = $1 and kind = $2 and ($3::text is null or identifier_hash = $3) and ($5::text is null or address_hash = $5)
          and ${WINDOW}`,
      [scope, kind, identifierHash, FLOW_THROTTLE_WINDOW_MS, addressHash],
    );
    return Math.max(1, result.rows[0]?.seconds ?? 1);
  }

  async function record(kind: 'failure' | 'mail', identifierHash: string, addressHash: string): Promise<void> {
    await pool.query('insert into identity_flow_events (scope, kind, identifier_hash, address_hash) values ($1, $2, $3, $4)', [
      scope,
      kind,
      identifierHash,
      addressHash,
    ]);
  }

  return {
    async assess(identifier, address) {
      const identifierHash = hashes.identifier(identifier);
      const addressHash = hashes.address(address);
      const found = await counts('failure', identifierHash, addressHash, {
        pair: FLOW_PAIR_FAILURE_LIMIT,
        identifier: ACCOUNT_COUNT_CAP,
        address: FLOW_ADDRESS_FAILURE_LIMIT,
      });
      if (found.address >= FLOW_ADDRESS_FAILURE_LIMIT) return { allowed: false, retryAfterSeconds: await retryAfter('failure', null, addressHash) };
      if (found.pair >= FLOW_PAIR_FAILURE_LIMIT) {
        return { allowed: false, retryAfterSeconds: await retryAfter('failure', identifierHash, addressHash) };
      }
      // The identifier's failures from everywhere only ever hold the attempt, before the code is looked at (so the hold
      // says nothing about it): refusing on them would let strangers lock the owner out.
      const delayMs = accountDelayFor(found.identifier);
      if (delayMs > 0) await sleep(delayMs);
      return { allowed: true };
    },

    async recordFailure(identifier, address) {
      await record('failure', hashes.identifier(identifier), hashes.address(address));
    },

    async recordSuccess(identifier, address) {
      await pool.query(
        `delete from identity_flow_events where scope = $1 and kind = 'failure' and identifier_hash = $2 and address_hash = $3`,
        [scope, hashes.identifier(identifier), hashes.address(address)],
      );
    },

    async admitMail(identifier, address) {
      const identifierHash = hashes.identifier(identifier);
      const addressHash = hashes.address(address);
      const found = await counts('mail', identifierHash, addressHash, {
        pair: MAIL_PAIR_LIMIT,
        identifier: MAIL_RECIPIENT_LIMIT,
        address: MAIL_ADDRESS_LIMIT,
      });
      if (found.address >= MAIL_ADDRESS_LIMIT) return { allowed: false, retryAfterSeconds: await retryAfter('mail', null, addressHash) };
      if (found.pair >= MAIL_PAIR_LIMIT) return { allowed: false, retryAfterSeconds: await retryAfter('mail', identifierHash, addressHash) };
      if (found.identifier >= MAIL_RECIPIENT_LIMIT) {
        return { allowed: false, retryAfterSeconds: await retryAfter('mail', identifierHash, null) };
      }
      await record('mail', identifierHash, addressHash);
      return { allowed: true };
    },
  };
}

/** Removes events older than the window and codes and links that expired a day ago (kept that long for the record). */
export async function sweepEmailFlowState(pool: pg.Pool): Promise<void> {
  await pool.query('delete from identity_flow_events where happened_at < now() - make_interval(secs => $1::double precision / 1000)', [
    FLOW_THROTTLE_WINDOW_MS,
  ]);
  await pool.query(`delete from identity_codes where expires_at < now() - interval '1 day'`);
}
