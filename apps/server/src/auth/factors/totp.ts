import type pg from 'pg';
import { Secret, TOTP } from 'otpauth';
import { toDataURL } from 'qrcode';
import { z } from 'zod';
import { deleteCredential, readCredentialConfig, saveCredential, seal, unseal } from './second-factor-store';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, six digits, 30-second steps, a 160-bit key. A code is
 * accepted one step either side of now, for clocks that drift, and never twice: the credential remembers the last
 * step it accepted and refuses that step and every earlier one.
 */
export const TOTP_ISSUER = 'Opsdeck';
const SECRET_BYTES = 20;
const WINDOW_STEPS = 1;
const CODE_SHAPE = /^\d{6}$/;

const totpConfigSchema = z.object({ secret: z.string(), last_used_step: z.number().int().optional() });

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

/** The otpauth:// URI an authenticator app scans, labelled with the person's email. */
export function totpUri(secretBase32: string, label: string): string {
  return totpFor(secretBase32, label).toString();
}

/** The URI as a PNG QR code in a data: URL, which the console's content security policy allows for images. */
export function totpQrDataUrl(secretBase32: string, label: string): Promise<string> {
  return toDataURL(totpUri(secretBase32, label), { errorCorrectionLevel: 'M', margin: 1, width: 256 });
}

/** The time step a code belongs to, within the window around `now`, or null for a wrong code. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!CODE_SHAPE.test(token)) return null;
  const totp = totpFor(secretBase32, '');
  const delta = totp.validate({ token, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

export async function hasTotp(pool: pg.Pool, identityId: string): Promise<boolean> {
  return (await readCredentialConfig(pool, identityId, 'totp')) !== null;
}

/** Saves the key, sealed, with the step of the code that confirmed it (when one did) already spent. */
export async function linkTotp(
  db: pg.Pool | pg.PoolClient,
  key: Buffer,
  identityId: string,
  secretBase32: string,
  confirmedStep?: number,
): Promise<void> {
  await saveCredential(db, identityId, 'totp', [], {
    secret: seal(key, secretBase32),
    ...(confirmedStep === undefined ? {} : { last_used_step: confirmedStep }),
  });
}

export function unlinkTotp(pool: pg.Pool, identityId: string): Promise<boolean> {
  return deleteCredential(pool, identityId, 'totp');
}

/**
 * Checks a sign-in code against the identity's TOTP credential and spends its step. The update only succeeds while
 * the stored step is older, so two requests racing with the same code cannot both pass.
 */
export async function acceptTotpCode(pool: pg.Pool, key: Buffer, identityId: string, code: string, now = Date.now()): Promise<boolean> {
  const parsed = totpConfigSchema.safeParse(await readCredentialConfig(pool, identityId, 'totp'));
  if (!parsed.success) return false;
  const step = totpStep(unseal(key, parsed.data.secret), code, now);
  if (step === null || step <= (parsed.data.last_used_step ?? -1)) return false;
  const spent = await pool.query(
    `update identity_credentials set config = jsonb_set(config, '{last_used_step}', to_jsonb($2::bigint))
      where identity_id = $1 and type = 'totp' and coalesce((config->>'last_used_step')::bigint, -1) < $2`,
    [identityId, step],
  );
  return spent.rowCount === 1;
}
