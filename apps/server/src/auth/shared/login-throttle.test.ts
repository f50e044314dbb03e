import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressKey, delayFor, MAX_DELAY_MS, PAIR_FAILURE_LIMIT, throttleHashes } from './login-throttle';

describe('addressKey', () => {
  it('keeps an IPv4 address and reads an IPv4-mapped IPv6 address as the IPv4 one', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const key = addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2::1')).toBe(key);
    expect(addressKey('2001:0db8:0001:0002:0:0:0:1%eth0')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('delayFor', () => {
  it('adds no delay until another address has used a whole budget, then grows to a bounded cap', () => {
    expect(delayFor(0)).toBe(0);
    expect(delayFor(PAIR_FAILURE_LIMIT - 1)).toBe(0);
    expect(delayFor(PAIR_FAILURE_LIMIT)).toBeGreaterThan(0);
    expect(delayFor(PAIR_FAILURE_LIMIT + 5)).toBeGreaterThan(delayFor(PAIR_FAILURE_LIMIT));
    expect(delayFor(1_000_000)).toBe(MAX_DELAY_MS);
  });
});

describe('throttleHashes', () => {
  it('is keyed: neither the plain SHA-256 of the value nor the same under another server key', () => {
    const key = randomBytes(32);
    const hashes = throttleHashes(key);
    const plain = createHash('sha256').update('admin@opsdeck.local').digest('hex');
    expect(hashes.identifier('admin@opsdeck.local')).not.toBe(plain);
    expect(hashes.identifier('admin@opsdeck.local')).toBe(throttleHashes(key).identifier('admin@opsdeck.local'));
    expect(throttleHashes(randomBytes(32)).identifier('admin@opsdeck.local')).not.toBe(hashes.identifier('admin@opsdeck.local'));
  });

  it('keeps identifiers and addresses apart, and hashes an address by its limit unit', () => {
    const hashes = throttleHashes(randomBytes(32));
    expect(hashes.identifier('203.0.113.7')).not.toBe(hashes.address('203.0.113.7'));
    expect(hashes.address('::ffff:203.0.113.7')).toBe(hashes.address('203.0.113.7'));
  });
});
