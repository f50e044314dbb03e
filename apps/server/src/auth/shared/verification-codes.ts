import { createHmac, randomInt } from 'node:crypto';
import type pg from 'pg';
import { inTransaction } from '../../db/transaction';
import { deriveSubkey } from '../../platform/secrets';

/** How long a recovery or verification code works after it was sent. */
export const CODE_TTL_MS = 15 * 60 * 1000;
/** Wrong codes one flow accepts in all, across resends; the fifth spends the flow. */
export const MAX_CODE_ATTEMPTS = 5;

export type CodePurpose = 'recovery' | 'verification';

export type CodeRedemption =
  | { outcome: 'ok'; identityId: string; address: string }
  | { outcome: 'invalid'; attemptsLeft: number }
  | { outcome: 'exhausted' };

export interface CodeStore {
  /**
   * A new six-digit code for the flow, replacing any earlier one. `identityId` is null for an address nobody has: the
   * row is written all the same, so both answers cost the same, and a code without identity never redeems.
   */
  issue(input: { purpose: CodePurpose; flowId: string; identityId: string | null; address: string }): Promise<string>;
  /** The address the flow's latest code went to, or null when none was sent yet. */
  currentAddress(flowId: string): Promise<string | null>;
  /** Spends the code when it is the flow's current one and still valid; otherwise counts a wrong try against the flow. */
  redeem(flowId: string, code: string): Promise<CodeRedemption>;
}

const CODE_SHAPE = /^\d{6}$/;

/** Six digits from the CSPRNG, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Codes are stored as HMAC-SHA-256 under a sub-key of the server key, bound to their flow: a million possible codes
 * would fall to a plain hash at once, and a code is worth nothing outside the flow it was sent for.
 */
export function codeHasher(secretKey: Buffer): (flowId: string, code: string) => string {
  const key = deriveSubkey(secretKey, 'identity-codes');
  return (flowId, code) => createHmac('sha256', key).update(`${flowId}\u0000${code}`).digest('hex');
}

export function createCodeStore(pool: pg.Pool, secretKey: Buffer): CodeStore {
  const hash = codeHasher(secretKey);

  async function spendAll(db: pg.Pool | pg.PoolClient, flowId: string): Promise<void> {
    await db.query('update identity_codes set spent_at = now() where flow_id = $1 and spent_at is null', [flowId]);
  }

  async function attemptsSoFar(client: pg.PoolClient, flowId: string): Promise<number> {
    const result = await client.query<{ attempts: number }>(
      'select coalesce(sum(failed_attempts), 0)::int as attempts from identity_codes where flow_id = $1',
      [flowId],
    );
    return result.rows[0]?.attempts ?? 0;
  }

  return {
    async issue({ purpose, flowId, identityId, address }) {
      const code = newCode();
      await spendAll(pool, flowId);
      await pool.query(
        `insert into identity_codes (purpose, flow_id, identity_id, address, code_hash, expires_at)
         values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::double precision / 1000))`,
        [purpose, flowId, identityId, address, hash(flowId, code), CODE_TTL_MS],
      );
      return code;
    },

    async currentAddress(flowId) {
      const result = await pool.query<{ address: string | null }>(
        'select address from identity_codes where flow_id = $1 order by created_at desc, id limit 1',
        [flowId],
      );
      return result.rows[0]?.address ?? null;
    },

    async redeem(flowId, code) {
      // One redemption of a flow at a time: read side by side, twenty guesses sent at once would all see the same
      // count of earlier tries and all be judged, where the flow allows five in all.
      return inTransaction(pool, async (client) => {
        await client.query(`select pg_advisory_xact_lock(hashtextextended('identity_codes/' || $1, 0))`, [flowId]);
        const before = await attemptsSoFar(client, flowId);
        if (before >= MAX_CODE_ATTEMPTS) return { outcome: 'exhausted' };
        const candidate = code.trim();
        if (CODE_SHAPE.test(candidate)) {
          const spent = await client.query<{ identity_id: string; address: string }>(
            `update identity_codes set spent_at = now()
              where flow_id = $1 and code_hash = $2 and spent_at is null and expires_at > now() and identity_id is not null
              returning identity_id, address`,
            [flowId, hash(flowId, candidate)],
          );
          const row = spent.rows[0];
          if (row !== undefined) return { outcome: 'ok', identityId: row.identity_id, address: row.address };
        }
        await client.query(
          `update identity_codes set failed_attempts = failed_attempts + 1
            where id = (select id from identity_codes where flow_id = $1 order by created_at desc, id limit 1)`,
          [flowId],
        );
        const attempts = before + 1;
        if (attempts >= MAX_CODE_ATTEMPTS) {
          await spendAll(client, flowId);
          return { outcome: 'exhausted' };
        }
        return { outcome: 'invalid', attemptsLeft: MAX_CODE_ATTEMPTS - attempts };
      });
    },
  };
}

/** The active identity whose traits hold this address (lower-case), or null. */
export async function identityForAddress(pool: pg.Pool, address: string): Promise<string | null> {
  const result = await pool.query<{ identity_id: string }>(
    `select a.identity_id
       from identity_verifiable_addresses a
       join identities i on i.id = a.identity_id and i.state = 'active'
       join people p on p.id = i.id and p.deleted_at is null
      where a.value = $1
      order by a.created_at
      limit 1`,
    [address],
  );
  return result.rows[0]?.identity_id ?? null;
}

/** Records that the owner of the identity received mail at the address (a code from it came back). */
export async function markAddressVerified(pool: pg.Pool, identityId: string, address: string): Promise<void> {
  await pool.query(
    `update identity_verifiable_addresses
        set verified_at = case when verified then verified_at else now() end, verified = true
      where identity_id = $1 and value = $2`,
    [identityId, address],
  );
}

/** Whether the address of the identity is verified; false for an address it does not have. */
export async function isAddressVerified(pool: pg.Pool, identityId: string, address: string): Promise<boolean> {
  const result = await pool.query<{ verified: boolean }>(
    'select verified from identity_verifiable_addresses where identity_id = $1 and value = $2',
    [identityId, address],
  );
  return result.rows[0]?.verified ?? false;
}
