import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import { requestOrigin } from '../shared/request-info';
import { deleteCredential, readCredentialConfig, saveCredential } from './second-factor-store';

/**
 * WebAuthn security keys and platform authenticators as a second factor. The relying party is the console's public
 * origin (OPSDECK_PUBLIC_URL, else the origin the browser used): its host name is the RP ID the keys are bound to,
 * and only assertions made on that origin are accepted. User verification is not required, since a key here only
 * ever comes after the password.
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

const RP_NAME = 'Opsdeck';
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;
const MAX_KEYS = 20;

export function relyingParty(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): RelyingParty {
  const url = new URL(config.publicUrl ?? requestOrigin(request));
  return { id: url.hostname, name: RP_NAME, origin: url.origin };
}

const storedCredentialSchema = z.object({
  id: z.string(),
  /** The COSE public key, base64url. */
  publicKey: z.string(),
  counter: z.number().int().nonnegative(),
  transports: z.array(z.string()),
  name: z.string(),
  created_at: z.string(),
});
export type StoredWebauthnCredential = z.infer<typeof storedCredentialSchema>;
const webauthnConfigSchema = z.object({ credentials: z.array(storedCredentialSchema) });

export async function listWebauthnCredentials(pool: pg.Pool, identityId: string): Promise<StoredWebauthnCredential[]> {
  const parsed = webauthnConfigSchema.safeParse(await readCredentialConfig(pool, identityId, 'webauthn'));
  return parsed.success ? parsed.data.credentials : [];
}

/** Keeps the credential row only while it holds keys: a row without keys would still demand a second factor. */
async function saveCredentials(pool: pg.Pool, identityId: string, credentials: StoredWebauthnCredential[]): Promise<void> {
  if (credentials.length === 0) await deleteCredential(pool, identityId, 'webauthn');
  else await saveCredential(pool, identityId, 'webauthn', credentials.map((credential) => credential.id), { credentials });
}

export function canAddKey(existing: readonly StoredWebauthnCredential[]): boolean {
  return existing.length < MAX_KEYS;
}

export function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; displayName: string },
  existing: readonly StoredWebauthnCredential[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: user.displayName,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.id, transports: credential.transports })),
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
  });
}

export function authenticationOptions(rp: RelyingParty, credentials: readonly StoredWebauthnCredential[]): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'discouraged',
    allowCredentials: credentials.map((credential) => ({ id: credential.id, transports: credential.transports })),
  });
}

const base64url = z.string().max(65536).regex(/^[A-Za-z0-9_-]*$/);
// Client extension results are dropped: none is asked for, so none may change the outcome.
const credentialEnvelope = {
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};
const registrationResponseSchema = z.object({
  ...credentialEnvelope,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});
const authenticationResponseSchema = z.object({
  ...credentialEnvelope,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});

/** The browser's JSON (the hidden field's value), or null when it is not JSON of that shape. */
function parseJson<T>(schema: z.ZodType<T>, raw: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a registration ceremony against the challenge this flow handed out and stores the new key under `name`.
 * False when the response is malformed, made for another challenge, origin or RP ID, or the key is already stored.
 */
export async function registerWebauthnKey(
  pool: pg.Pool,
  rp: RelyingParty,
  identityId: string,
  expectedChallenge: string,
  responseJson: string,
  name: string,
): Promise<boolean> {
  const parsed = parseJson(registrationResponseSchema, responseJson);
  if (parsed === null) return false;
  const response: RegistrationResponseJSON = { ...parsed, clientExtensionResults: {} };
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  // The library throws on malformed data as on a wrong origin or challenge; either way the key is not registered.
  if (verification === null || !verification.verified) return false;
  const existing = await listWebauthnCredentials(pool, identityId);
  const { credential } = verification.registrationInfo;
  if (existing.some((stored) => stored.id === credential.id) || !canAddKey(existing)) return false;
  await saveCredentials(pool, identityId, [
    ...existing,
    {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: parsed.response.transports ?? [],
      name,
      created_at: new Date().toISOString(),
    },
  ]);
  return true;
}

export async function removeWebauthnKey(pool: pg.Pool, identityId: string, credentialId: string): Promise<boolean> {
  const existing = await listWebauthnCredentials(pool, identityId);
  const kept = existing.filter((credential) => credential.id !== credentialId);
  if (kept.length === existing.length) return false;
  await saveCredentials(pool, identityId, kept);
  return true;
}

/**
 * Verifies a sign-in assertion by one of the identity's keys against the flow's challenge, and stores the key's new
 * signature counter (the library refuses a counter that did not grow, the sign of a cloned key).
 */
export async function verifyWebauthnAssertion(
  pool: pg.Pool,
  rp: RelyingParty,
  identityId: string,
  expectedChallenge: string,
  responseJson: string,
): Promise<boolean> {
  const parsed = parseJson(authenticationResponseSchema, responseJson);
  if (parsed === null) return false;
  const credentials = await listWebauthnCredentials(pool, identityId);
  const stored = credentials.find((credential) => credential.id === parsed.id);
  if (stored === undefined) return false;
  const response: AuthenticationResponseJSON = { ...parsed, clientExtensionResults: {} };
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: stored.id,
      publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
      counter: stored.counter,
      transports: stored.transports,
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (verification === null || !verification.verified) return false;
  const newCounter = verification.authenticationInfo.newCounter;
  await saveCredentials(
    pool,
    identityId,
    credentials.map((credential) => (credential.id === stored.id ? { ...credential, counter: newCounter } : credential)),
  );
  return true;
}
