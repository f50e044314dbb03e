import { z } from 'zod';
import { decryptSecret, deriveSubkey, encryptSecret } from '../../platform/secrets';

/**
 * What a sign-in must remember between sending the browser to the provider and the provider sending it back. It
 * travels in an encrypted, HttpOnly cookie bound to this browser rather than in a table: the PKCE verifier and the
 * nonce must never be readable by the page, a callback arriving in another browser must find nothing (the cookie is
 * the binding that stops an attacker from pushing their own authorization code into a victim's browser), and an
 * abandoned sign-in leaves no row behind.
 */
export const LOGIN_STATE_COOKIE = 'opsdeck_oidc';
export const LOGIN_STATE_PATH = '/api/auth/oidc';
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;

const loginStateSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43),
  redirectUri: z.string().url(),
  returnTo: z.string().nullable(),
  expiresAt: z.number().int(),
});
export type LoginState = z.infer<typeof loginStateSchema>;

function cookieKey(secretKey: Buffer): Buffer {
  return deriveSubkey(secretKey, 'oidc-login-state');
}

export function sealLoginState(secretKey: Buffer, state: LoginState): string {
  return encryptSecret(cookieKey(secretKey), JSON.stringify(state)).toString('base64url');
}

/**
 * The state this browser sealed, or null when the cookie is missing, altered, sealed under another key or expired.
 * The callers tell the person to start again; why exactly is nobody's business but the log's.
 */
export function openLoginState(secretKey: Buffer, sealed: string | undefined, now: number = Date.now()): LoginState | null {
  if (sealed === undefined || sealed === '' || sealed.length > 4096) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decryptSecret(cookieKey(secretKey), Buffer.from(sealed, 'base64url')));
  } catch {
    return null;
  }
  const result = loginStateSchema.safeParse(parsed);
  if (!result.success || result.data.expiresAt <= now) return null;
  return result.data;
}
