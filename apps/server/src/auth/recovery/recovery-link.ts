import type pg from 'pg';
import { hashToken, newSessionToken } from '../shared/session-token';

export const RECOVERY_LINK_PATH = '/api/auth/self-service/recovery';

/**
 * A link that signs its holder in once as the identity and sends them to set a password: what an invitation mails.
 * The token is 256 random bits, so its SHA-256 is all that is stored (a keyed hash adds nothing against guessing at
 * that size). Creating a link spends the identity's earlier unused links, so only the newest invitation works.
 * `origin` is where the console is reached (config.publicUrl, else the request's origin).
 */
export async function createRecoveryLink(
  pool: pg.Pool,
  identityId: string,
  origin: string,
  ttlMs: number,
): Promise<{ url: string; expiresAt: string }> {
  const token = newSessionToken();
  await pool.query(
    `update identity_codes set spent_at = now() where purpose = 'recovery_link' and identity_id = $1 and spent_at is null`,
    [identityId],
  );
  const result = await pool.query<{ expires_at: string }>(
    `insert into identity_codes (purpose, identity_id, code_hash, expires_at)
     values ('recovery_link', $1, $2, now() + make_interval(secs => $3::double precision / 1000))
     returning expires_at`,
    [identityId, hashToken(token), ttlMs],
  );
  const expiresAt = result.rows[0]?.expires_at;
  if (expiresAt === undefined) throw new Error('recovery link insert returned no row');
  const query = new URLSearchParams({ token });
  return { url: `${origin.replace(/\/+$/, '')}${RECOVERY_LINK_PATH}?${query.toString()}`, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * Spends the link and answers the identity it signs in as; null when the token is unknown, used, expired, or its
 * identity is no longer active. One statement, so two clicks at once still sign in only once.
 */
export async function redeemRecoveryLink(pool: pg.Pool, token: string): Promise<string | null> {
  const result = await pool.query<{ identity_id: string }>(
    `update identity_codes c set spent_at = now()
      where c.purpose = 'recovery_link' and c.code_hash = $1 and c.spent_at is null and c.expires_at > now()
        and exists (select 1 from identities i join people p on p.id = i.id
                     where i.id = c.identity_id and i.state = 'active' and p.deleted_at is null)
      returning c.identity_id`,
    [hashToken(token)],
  );
  return result.rows[0]?.identity_id ?? null;
}
