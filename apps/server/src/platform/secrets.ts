import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random 96-bit nonce per value. Stored layout: version byte, nonce, tag, ciphertext — the version
 * byte lets a later key rotation tell old values from new. The key lives outside the database (config.secretKey).
 */
export function encryptSecret(key: Buffer, plaintext: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

export function decryptSecret(key: Buffer, stored: Buffer): string {
  if (stored.length < 1 + IV_BYTES + TAG_BYTES || stored[0] !== VERSION) throw new Error('Stored secret has an unknown format');
  const iv = stored.subarray(1, 1 + IV_BYTES);
  const tag = stored.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(stored.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/**
 * A 32-byte key for one purpose, derived from the server key with HKDF-SHA-256. Hashing and token derivation use these
 * sub-keys, so the key that encrypts secrets is only ever fed to AES-GCM and one purpose's key says nothing of another.
 */
export function deriveSubkey(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `opsdeck:${purpose}`, 32));
}
