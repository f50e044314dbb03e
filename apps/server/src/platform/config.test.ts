import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const KEY = Buffer.alloc(32, 7);

function configWith(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'opsdeck-config-')), ...env }, { secretKey: KEY });
}

describe('identity configuration', () => {
  it('uses the built-in identity service and the server log for identity mail when nothing is set', () => {
    const config = configWith({});
    expect(config.oidc).toBeNull();
    expect(config.smtpUrl).toBeNull();
    expect(config.returnToAllowlist).toEqual([]);
  });

  it('reduces each return_to allow-list entry to its origin, so a path or slash in the setting cannot widen a match', () => {
    const config = configWith({ OPSDECK_RETURN_TO_ALLOWLIST: 'https://docs.example.com/some/path, http://localhost:3000/' });
    expect(config.returnToAllowlist).toEqual(['https://docs.example.com', 'http://localhost:3000']);
  });

  it('refuses a return_to allow-list entry that is not an http(s) origin', () => {
    expect(() => configWith({ OPSDECK_RETURN_TO_ALLOWLIST: 'javascript:alert(1)' })).toThrow(/not an http\(s\) origin/);
  });

  it('refuses an SMTP URL of another scheme', () => {
    expect(() => configWith({ OPSDECK_SMTP_URL: 'http://mail.example.com' })).toThrow(/OPSDECK_SMTP_URL/);
  });

  it('turns hosted mode on only with issuer, client id and client secret together', () => {
    expect(() => configWith({ OPSDECK_OIDC_ISSUER: 'https://id.example.com' })).toThrow(/go together/);
    const config = configWith({
      OPSDECK_OIDC_ISSUER: 'https://id.example.com',
      OPSDECK_OIDC_CLIENT_ID: 'opsdeck',
      OPSDECK_OIDC_CLIENT_SECRET: 'shh',
    });
    expect(config.oidc).toMatchObject({ issuer: 'https://id.example.com', clientId: 'opsdeck', rolesClaim: 'roles', organizationsClaim: 'organizations' });
  });
});
