import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'opsdeck_session';
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** An opaque 256-bit token; only its SHA-256 is stored, so a database dump cannot be replayed as sessions. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
