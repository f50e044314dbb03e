import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './secrets';

describe('secrets', () => {
  const key = randomBytes(32);

  it('decrypts what it encrypted', () => {
    expect(decryptSecret(key, encryptSecret(key, 'hunter2 ✓'))).toBe('hunter2 ✓');
  });

  it('never stores the plaintext and uses a fresh nonce each time', () => {
    const a = encryptSecret(key, 'same secret');
    const b = encryptSecret(key, 'same secret');
    expect(a.includes(Buffer.from('same secret'))).toBe(false);
    expect(a.equals(b)).toBe(false);
  });

  it('refuses a value encrypted under another key', () => {
    expect(() => decryptSecret(randomBytes(32), encryptSecret(key, 'x'))).toThrow();
  });

  it('refuses a tampered value', () => {
    const stored = encryptSecret(key, 'payload');
    stored[stored.length - 1] = (stored[stored.length - 1] ?? 0) ^ 1;
    expect(() => decryptSecret(key, stored)).toThrow();
  });
});
