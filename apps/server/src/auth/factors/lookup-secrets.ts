import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { deriveSubkey } from '../../platform/secrets';
import { deleteCredential, readCredentialConfig, saveCredential, sealList, unsealList } from './second-factor-store';

/**
 * Backup recovery codes ("lookup secrets"): 12 single-use codes of 8 lowercase letters and digits (about 41 bits
 * each). Every code is stored twice, for two different needs:
 * - `codes[i].hash`, an HMAC-SHA-256 under a sub-key of the server key, to find the code typed at sign-in without
 *   decrypting anything, together with `used_at` once it was spent;
 * - `sealed`, all codes encrypted with the server key (AES-256-GCM, platform/secrets.ts, as connection secrets are),
 *   so that "reveal" can show the owner their codes again later, spent ones as 'Used'.
 * A plain hash alone would make "reveal" impossible; the key lives outside the database, so a dump yields neither.
 */
export const LOOKUP_CODE_COUNT = 12;
const CODE_LENGTH = 8;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const USED_CODE_TEXT = 'Used';

const lookupConfigSchema = z.object({
  codes: z.array(z.object({ hash: z.string(), used_at: z.string().nullable() })),
  sealed: z.string(),
});
type LookupConfig = z.infer<typeof lookupConfigSchema>;

export function generateLookupCodes(): string[] {
  return Array.from({ length: LOOKUP_CODE_COUNT }, () => Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
}

/** What people type varies (spaces, dashes, capitals); the code itself is lowercase letters and digits only. */
function normalizeCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]+/g, '');
}

function codeHash(key: Buffer, code: string): string {
  return createHmac('sha256', deriveSubkey(key, 'lookup-secret')).update(code).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

async function readConfig(pool: pg.Pool | pg.PoolClient, identityId: string): Promise<LookupConfig | null> {
  const parsed = lookupConfigSchema.safeParse(await readCredentialConfig(pool, identityId, 'lookup_secret'));
  return parsed.success ? parsed.data : null;
}

/** Replaces the identity's codes with these (all unused). */
export async function saveLookupCodes(pool: pg.Pool, key: Buffer, identityId: string, codes: readonly string[]): Promise<void> {
  const config: LookupConfig = { codes: codes.map((code) => ({ hash: codeHash(key, code), used_at: null })), sealed: sealList(key, codes) };
  await saveCredential(pool, identityId, 'lookup_secret', [], config);
}

export function disableLookupCodes(pool: pg.Pool, identityId: string): Promise<boolean> {
  return deleteCredential(pool, identityId, 'lookup_secret');
}

export async function hasLookupCodes(pool: pg.Pool, identityId: string): Promise<boolean> {
  return (await readConfig(pool, identityId)) !== null;
}

/** Whether a sign-in could still use a code: at least one is unspent. */
export async function hasUnusedLookupCode(pool: pg.Pool, identityId: string): Promise<boolean> {
  const config = await readConfig(pool, identityId);
  return config !== null && config.codes.some((code) => code.used_at === null);
}

/** The saved codes as "reveal" shows them: each code, or 'Used' for a spent one; null without codes. */
export async function revealLookupCodes(pool: pg.Pool, key: Buffer, identityId: string): Promise<string[] | null> {
  const config = await readConfig(pool, identityId);
  const codes = config === null ? null : unsealList(key, config.sealed);
  if (config === null || codes === null) return null;
  return codes.map((code, index) => (config.codes[index]?.used_at === null ? code : USED_CODE_TEXT));
}

/** Spends a typed code: true once for each unspent code, in a transaction so two sign-ins cannot share one. */
export async function consumeLookupCode(pool: pg.Pool, key: Buffer, identityId: string, typed: string): Promise<boolean> {
  const code = normalizeCode(typed);
  if (code.length !== CODE_LENGTH) return false;
  const wanted = codeHash(key, code);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select 1 from identity_credentials where identity_id = $1 and type = 'lookup_secret' for update`, [identityId]);
    const config = await readConfig(client, identityId);
    const index = config === null ? -1 : config.codes.findIndex((entry) => entry.used_at === null && sameHash(entry.hash, wanted));
    if (config === null || index < 0) {
      await client.query('rollback');
      return false;
    }
    const codes = config.codes.map((entry, position) => (position === index ? { ...entry, used_at: new Date().toISOString() } : entry));
    await client.query(`update identity_credentials set config = $2 where identity_id = $1 and type = 'lookup_secret'`, [
      identityId,
      JSON.stringify({ ...config, codes }),
    ]);
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
