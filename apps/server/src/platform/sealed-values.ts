import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { decryptSecret, deriveSubkey } from './secrets';

/**
 * A secret as it sits inside a JSON spec: the envelope takes the place of the value, so every reader sees that a
 * secret is set and nothing more (ADR 0041, 0062).
 */
export interface SecretEnvelope {
  $encrypted: string;
}

/**
 * Where a sealed value belongs: the kind and id of the resource that holds it, its field path inside the part of the
 * resource it configures (a check entry, a scraper source, a playbook action), and the destination that part talks
 * to. All four are the AES-GCM associated data, so an envelope copied into another resource, moved to another field
 * or left behind when the destination changes no longer opens.
 */
export interface SecretBinding {
  kind: 'canary' | 'scraper' | 'playbook';
  resource: string;
  path: string;
  destination: string;
}

/** Why an envelope did not open; `binding` is the one a copy or a changed destination produces. */
export type SealedValueProblem = 'malformed' | 'foreign-key' | 'legacy' | 'binding';

export class SealedValueError extends Error {
  constructor(readonly problem: SealedValueProblem) {
    super(
      {
        malformed: 'The sealed value is not an envelope this server wrote',
        'foreign-key': "The sealed value was sealed with another server's key",
        legacy: 'The sealed value was sealed before secrets were bound to their resource',
        binding: 'The sealed value belongs to another resource, field or destination',
      }[problem],
    );
    this.name = 'SealedValueError';
  }
}

/** Version 1 (platform/secrets.ts) bound nothing; version 2 adds a key id and the binding as associated data. */
const BOUND_VERSION = 2;
const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSecretEnvelope(value: unknown): value is SecretEnvelope {
  return isRecord(value) && typeof value.$encrypted === 'string' && Object.keys(value).length === 1;
}

/**
 * A short id of the key, so an envelope of another installation is told apart from a copy under this key: the first
 * must be typed again, the second is a binding mismatch. Derived with HKDF, so it says nothing of the key itself.
 */
function keyId(key: Buffer): Buffer {
  return deriveSubkey(key, 'sealed-value-key-id').subarray(0, KEY_ID_BYTES);
}

function associatedData(binding: SecretBinding): Buffer {
  return Buffer.from(JSON.stringify(['opsdeck-sealed-value', binding.kind, binding.resource, binding.path, binding.destination]), 'utf8');
}

export function sealBound(key: Buffer, plaintext: string, binding: SecretBinding): SecretEnvelope {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(binding));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const stored = Buffer.concat([Buffer.from([BOUND_VERSION]), keyId(key), iv, cipher.getAuthTag(), body]);
  return { $encrypted: stored.toString('base64') };
}

function decode(envelope: SecretEnvelope): Buffer {
  if (envelope.$encrypted === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(envelope.$encrypted)) throw new SealedValueError('malformed');
  return Buffer.from(envelope.$encrypted, 'base64');
}

/** What an envelope is, before trying a binding: bound under this key, an older unbound one, or neither. */
export function envelopeVersion(key: Buffer, envelope: SecretEnvelope): 'bound' | 'legacy' | SealedValueProblem {
  let stored: Buffer;
  try {
    stored = decode(envelope);
  } catch {
    return 'malformed';
  }
  if (stored[0] === 1) return 'legacy';
  if (stored[0] !== BOUND_VERSION || stored.length < HEADER_BYTES) return 'malformed';
  return stored.subarray(1, 1 + KEY_ID_BYTES).equals(keyId(key)) ? 'bound' : 'foreign-key';
}

/** The plaintext, only when the envelope was sealed under this key for exactly this binding. */
export function openBound(key: Buffer, envelope: SecretEnvelope, binding: SecretBinding): string {
  const version = envelopeVersion(key, envelope);
  if (version !== 'bound') throw new SealedValueError(version);
  const stored = decode(envelope);
  const ivStart = 1 + KEY_ID_BYTES;
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(ivStart, ivStart + IV_BYTES));
  decipher.setAAD(associatedData(binding));
  decipher.setAuthTag(stored.subarray(ivStart + IV_BYTES, HEADER_BYTES));
  try {
    return Buffer.concat([decipher.update(stored.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedValueError('binding');
  }
}

/**
 * Only the re-sealing sweep reads version 1 envelopes, once, to bind them where they are stored (ADR 0062): on any
 * write or run path a version 1 envelope is refused, since a reader may have kept a copy from before.
 */
export function openLegacy(key: Buffer, envelope: SecretEnvelope): string {
  if (envelopeVersion(key, envelope) !== 'legacy') throw new SealedValueError('malformed');
  try {
    return decryptSecret(key, decode(envelope));
  } catch {
    throw new SealedValueError('foreign-key');
  }
}
