import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type pg from 'pg';
import { deriveSubkey } from '../../platform/secrets';

export const LOGIN_FAILURE_WINDOW_MS = 5 * 60 * 1000;
/** Failures one address may make for one identifier within the window; the next attempt is refused. */
export const PAIR_FAILURE_LIMIT = 10;
/** Failures one address may make across all identifiers within the window; the next attempt is refused. */
export const ADDRESS_FAILURE_LIMIT = 50;
export const DELAY_STEP_MS = 100;
export const MAX_DELAY_MS = 2000;
/** Beyond this many failures from elsewhere the delay is already at its cap, so counting further is wasted work. */
const ELSEWHERE_COUNT_CAP = PAIR_FAILURE_LIMIT + MAX_DELAY_MS / DELAY_STEP_MS;

export type ThrottleVerdict = { outcome: 'allowed'; delayMs: number } | { outcome: 'refused'; retryAfterSeconds: number };

export interface LoginThrottle {
  /** Whether this address may try this identifier now, and how long to hold the attempt first. */
  assess(identifier: string, address: string): Promise<ThrottleVerdict>;
  recordFailure(identifier: string, address: string): Promise<void>;
  /** Clears this address's failures for this identifier only: a success elsewhere must not lift a stranger's limit. */
  recordSuccess(identifier: string, address: string): Promise<void>;
}

/**
 * The owner's attempts from an address with no failures of its own are never refused, only slowed as failures for
 * the identifier pile up elsewhere: nothing below a full pair budget, then one step per failure, up to the cap.
 */
export function delayFor(failuresElsewhere: number): number {
  const excess = failuresElsewhere - PAIR_FAILURE_LIMIT + 1;
  return excess <= 0 ? 0 : Math.min(MAX_DELAY_MS, excess * DELAY_STEP_MS);
}

function expandIpv6(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string | undefined): number[] | null => {
    if (part === undefined || part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (isIPv4(piece)) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
        out.push(a * 256 + b, c * 256 + d);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (head === null || tail === null) return null;
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
}

/**
 * The unit a limit applies to: an IPv4 address, or the /64 an IPv6 address is in, since one IPv6 host routinely holds
 * a whole /64 and could otherwise take a fresh address for every try. IPv4-mapped IPv6 counts as the IPv4 address.
 */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (isIPv4(bare)) return bare;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(bare)) return bare;
  const groups = expandIpv6(bare);
  if (groups === null) return bare;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * Keyed hashes (HMAC-SHA-256 under a sub-key of the server key), so the stored rows reveal neither identifiers, nor
 * passwords typed into the identifier field, nor client addresses to anybody without the key.
 */
export function throttleHashes(secretKey: Buffer): { identifier(normalized: string): string; address(address: string): string } {
  const key = deriveSubkey(secretKey, 'login-throttle');
  const hash = (kind: string, value: string): string => createHmac('sha256', key).update(`${kind}\u0000${value}`).digest('hex');
  return { identifier: (normalized) => hash('identifier', normalized), address: (address) => hash('address', addressKey(address)) };
}

const WINDOW = `failed_at > now() - make_interval(secs => $3::double precision / 1000)`;

/**
 * Failures live in the database, so every server process sees the same counts. A refused attempt is not recorded,
 * which bounds the rows one address can create per window at ADDRESS_FAILURE_LIMIT.
 */
export function createLoginThrottle(pool: pg.Pool, secretKey: Buffer): LoginThrottle {
  const hashes = throttleHashes(secretKey);

  /** Seconds until the oldest failure counted against this address (for this identifier, when given) leaves the window. */
  async function retryAfter(addressHash: string, identifierHash: string | null): Promise<number> {
    const result = await pool.query<{ seconds: number | null }>(
      `select ceil(extract(epoch from min(failed_at) + make_interval(secs => $3::double precision / 1000) - now()))::int as seconds
         from login_failures
        where address_hash = $1 and ($2::text is null or identifier_hash = $2) and ${WINDOW}`,
      [addressHash, identifierHash, LOGIN_FAILURE_WINDOW_MS],
    );
    return Math.max(1, result.rows[0]?.seconds ?? 1);
  }

  return {
    async assess(identifier, address) {
      const identifierHash = hashes.identifier(identifier);
      const addressHash = hashes.address(address);
      // Each count stops at the number that decides the answer, so a flood of rows never makes a sign-in slow.
      const counts = await pool.query<{ pair: number; address: number; elsewhere: number }>(
        `select
           (select count(*) from (select 1 from login_failures where identifier_hash = $1 and address_hash = $2 and ${WINDOW} limit $4) p)::int as pair,
           (select count(*) from (select 1 from login_failures where address_hash = $2 and ${WINDOW} limit $5) a)::int as address,
           (select count(*) from (select 1 from login_failures where identifier_hash = $1 and address_hash <> $2 and ${WINDOW} limit $6) e)::int as elsewhere`,
        [identifierHash, addressHash, LOGIN_FAILURE_WINDOW_MS, PAIR_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, ELSEWHERE_COUNT_CAP],
      );
      const row = counts.rows[0] ?? { pair: 0, address: 0, elsewhere: 0 };
      if (row.address >= ADDRESS_FAILURE_LIMIT) {
        return { outcome: 'refused', retryAfterSeconds: await retryAfter(addressHash, null) };
      }
      if (row.pair >= PAIR_FAILURE_LIMIT) {
        return { outcome: 'refused', retryAfterSeconds: await retryAfter(addressHash, identifierHash) };
      }
      return { outcome: 'allowed', delayMs: delayFor(row.elsewhere) };
    },

    async recordFailure(identifier, address) {
      await pool.query('insert into login_failures (identifier_hash, address_hash) values ($1, $2)', [
        hashes.identifier(identifier),
        hashes.address(address),
      ]);
    },

    async recordSuccess(identifier, address) {
      await pool.query('delete from login_failures where identifier_hash = $1 and address_hash = $2', [
        hashes.identifier(identifier),
        hashes.address(address),
      ]);
    },
  };
}
