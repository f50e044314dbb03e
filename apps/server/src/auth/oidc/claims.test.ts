import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { organizationsFromClaim, profileFromClaims, readClaim, rolesFromClaim } from './claims';
import { openLoginState, sealLoginState, type LoginState } from './login-state';

const NAMES = { rolesClaim: 'roles', organizationsClaim: 'organizations' };

describe('roles from a claim', () => {
  it('keeps the known roles in any case and drops the rest', () => {
    expect(rolesFromClaim(['Editor', 'owner', ' responder ', 42])).toEqual(['editor', 'responder']);
  });

  it('reads a space- or comma-separated string as a list', () => {
    expect(rolesFromClaim('admin, viewer')).toEqual(['admin', 'viewer']);
  });

  it('makes a person without any known role a viewer', () => {
    expect(rolesFromClaim(undefined)).toEqual(['viewer']);
    expect(rolesFromClaim(['superuser'])).toEqual(['viewer']);
  });
});

describe('organizations from a claim', () => {
  it('takes strings and {id, name} objects, skipping malformed entries and repeats', () => {
    expect(organizationsFromClaim(['acme', { id: 'globex', name: 'Globex' }, { name: 'no id' }, null, [], 'acme', { id: 7 }])).toEqual([
      { id: 'acme', name: 'acme' },
      { id: 'globex', name: 'Globex' },
      { id: '7', name: '7' },
    ]);
  });

  it('stores at most a hundred and skips ids too long to be real', () => {
    const many = Array.from({ length: 150 }, (_, index) => `org-${index}`);
    expect(organizationsFromClaim(many)).toHaveLength(100);
    expect(organizationsFromClaim(['x'.repeat(201)])).toEqual([]);
  });

  it('is empty when the claim is not a list', () => {
    expect(organizationsFromClaim('acme')).toEqual([]);
  });
});

describe('reading a configured claim', () => {
  it('prefers the exact name, then follows a dotted path', () => {
    expect(readClaim({ 'https://example.test/roles': ['admin'] }, 'https://example.test/roles')).toEqual(['admin']);
    expect(readClaim({ realm_access: { roles: ['editor'] } }, 'realm_access.roles')).toEqual(['editor']);
    expect(readClaim({ realm_access: ['editor'] }, 'realm_access.roles')).toBeUndefined();
  });
});

describe('the profile of a sign-in', () => {
  it('takes the name parts from given and family name, else from the full name', () => {
    const result = profileFromClaims('https://id.example.test', { sub: 's1', email: 'ada@example.test', name: 'Ada King Lovelace' }, NAMES);
    expect(result).toEqual({
      profile: {
        issuer: 'https://id.example.test',
        subject: 's1',
        email: 'ada@example.test',
        name: 'Ada King Lovelace',
        firstName: 'Ada',
        lastName: 'King Lovelace',
        roles: ['viewer'],
        organizations: [],
      },
    });
  });

  it('falls back to the preferred username and then the address for the name', () => {
    const named = profileFromClaims('https://id.example.test', { sub: 's1', email: 'ada@example.test', preferred_username: 'ada' }, NAMES);
    expect('profile' in named && named.profile.name).toBe('ada');
    const bare = profileFromClaims('https://id.example.test', { sub: 's1', email: 'ada@example.test' }, NAMES);
    expect('profile' in bare && bare.profile.name).toBe('ada');
  });

  it('refuses a sign-in without an email address or with one the provider has not verified', () => {
    expect(profileFromClaims('https://id.example.test', { sub: 's1' }, NAMES)).toEqual({ problem: 'email_missing' });
    expect(profileFromClaims('https://id.example.test', { sub: 's1', email: 'not-an-address' }, NAMES)).toEqual({ problem: 'email_missing' });
    expect(profileFromClaims('https://id.example.test', { sub: 's1', email: 'a@example.test', email_verified: false }, NAMES)).toEqual({
      problem: 'email_unverified',
    });
  });
});

describe('the sealed sign-in state', () => {
  const key = randomBytes(32);
  const state: LoginState = {
    state: 'state-value',
    nonce: 'nonce-value',
    verifier: 'v'.repeat(43),
    redirectUri: 'https://console.example.test/api/auth/oidc/callback',
    returnTo: '/incidents',
    expiresAt: Date.now() + 60_000,
  };

  it('opens what it sealed', () => {
    expect(openLoginState(key, sealLoginState(key, state))).toEqual(state);
  });

  it('opens nothing that was altered, sealed under another key, or expired', () => {
    const sealed = sealLoginState(key, state);
    const flipped = Buffer.from(sealed, 'base64url');
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect(openLoginState(key, flipped.toString('base64url'))).toBeNull();
    expect(openLoginState(randomBytes(32), sealed)).toBeNull();
    expect(openLoginState(key, sealed, state.expiresAt)).toBeNull();
    expect(openLoginState(key, undefined)).toBeNull();
    expect(openLoginState(key, 'not even base64url!')).toBeNull();
  });

  it('keeps the PKCE verifier and nonce out of sight in the cookie value', () => {
    const sealed = sealLoginState(key, state);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('nonce-value');
  });
});
