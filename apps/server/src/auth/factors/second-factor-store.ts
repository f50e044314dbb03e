import type pg from 'pg';
import { z } from 'zod';
import { decryptSecret, encryptSecret } from '../../platform/secrets';

/**
 * What a flow keeps for itself between requests (self_service_flows.internal_context): never part of the flow sent to
 * the browser. Secrets in it are sealed with the server key, so a database dump shows no pending TOTP key or codes.
 */
export const flowContextSchema = z.object({
  /** The base64url challenge of the WebAuthn options this flow handed out (registration or sign-in). */
  webauthn_challenge: z.string().optional(),
  /** Settings: the TOTP key offered for linking, sealed; it becomes the credential once a code from it is confirmed. */
  totp_secret: z.string().optional(),
  /** Settings: freshly generated recovery codes, sealed JSON string[]; saved by lookup_secret_confirm. */
  lookup_codes: z.string().optional(),
  /** Settings: what the recovery-code list shows (codes, or 'Used'), sealed JSON string[]. */
  lookup_display: z.string().optional(),
});
export type FlowContext = z.infer<typeof flowContextSchema>;

export async function readFlowContext(pool: pg.Pool, flowId: string): Promise<FlowContext> {
  const result = await pool.query<{ internal_context: unknown }>('select internal_context from self_service_flows where id = $1', [flowId]);
  const parsed = flowContextSchema.safeParse(result.rows[0]?.internal_context ?? {});
  return parsed.success ? parsed.data : {};
}

/** Replaces the flow's context; keys set to undefined are dropped. */
export async function writeFlowContext(pool: pg.Pool, flowId: string, context: FlowContext): Promise<void> {
  await pool.query('update self_service_flows set internal_context = $2 where id = $1', [flowId, JSON.stringify(context)]);
}

/** A secret as it is kept in a jsonb column: the base64 of platform/secrets.ts's AES-256-GCM envelope. */
export function seal(key: Buffer, plaintext: string): string {
  return encryptSecret(key, plaintext).toString('base64');
}

export function unseal(key: Buffer, sealed: string): string {
  return decryptSecret(key, Buffer.from(sealed, 'base64'));
}

export function sealList(key: Buffer, values: readonly string[]): string {
  return seal(key, JSON.stringify(values));
}

export function unsealList(key: Buffer, sealed: string | undefined): string[] | null {
  if (sealed === undefined) return null;
  const parsed = z.array(z.string()).safeParse(JSON.parse(unseal(key, sealed)));
  return parsed.success ? parsed.data : null;
}

export type FactorType = 'totp' | 'lookup_secret' | 'webauthn';

/** One credential's config, or null when the identity has none of that type. */
export async function readCredentialConfig(pool: pg.Pool | pg.PoolClient, identityId: string, type: FactorType): Promise<unknown> {
  const result = await pool.query<{ config: unknown }>('select config from identity_credentials where identity_id = $1 and type = $2', [
    identityId,
    type,
  ]);
  return result.rows[0]?.config ?? null;
}

/** Creates or replaces the identity's credential of that type (one per type, as the table's unique key says). */
export async function saveCredential(
  pool: pg.Pool | pg.PoolClient,
  identityId: string,
  type: FactorType,
  identifiers: readonly string[],
  config: unknown,
): Promise<void> {
  await pool.query(
    `insert into identity_credentials (identity_id, type, identifiers, config) values ($1, $2, $3, $4)
     on conflict (identity_id, type) do update set identifiers = excluded.identifiers, config = excluded.config`,
    [identityId, type, identifiers, JSON.stringify(config)],
  );
}

export async function deleteCredential(pool: pg.Pool | pg.PoolClient, identityId: string, type: FactorType): Promise<boolean> {
  const result = await pool.query('delete from identity_credentials where identity_id = $1 and type = $2', [identityId, type]);
  return result.rowCount === 1;
}
