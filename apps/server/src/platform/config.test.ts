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

describe('metrics and lease configuration', () => {
  it('serves no metrics and keeps two-minute leases when nothing is set', () => {
    const config = configWith({});
    expect(config).toMatchObject({ metricsToken: null, metricsPort: null, metricsHost: '127.0.0.1', leaseSeconds: 120, eventLeaseSeconds: null });
  });

  it('reads the metrics token, port and host, and the lease lengths', () => {
    const config = configWith({
      OPSDECK_METRICS_TOKEN: 'a-long-enough-metrics-token',
      OPSDECK_METRICS_PORT: '9464',
      OPSDECK_METRICS_HOST: '0.0.0.0',
      OPSDECK_LEASE_SECONDS: '5',
      OPSDECK_EVENT_LEASE_SECONDS: '7',
    });
    expect(config).toMatchObject({ metricsToken: 'a-long-enough-metrics-token', metricsPort: 9464, metricsHost: '0.0.0.0', leaseSeconds: 5, eventLeaseSeconds: 7 });
  });

  it('runs 200 network checks and 8 others at once per worker unless told otherwise, and refuses zero', () => {
    expect(configWith({}).checkConcurrency).toEqual({ network: 200, bounded: 8 });
    expect(configWith({ OPSDECK_NETWORK_CHECK_CONCURRENCY: '50', OPSDECK_CHECK_CONCURRENCY: '2' }).checkConcurrency).toEqual({ network: 50, bounded: 2 });
    expect(() => configWith({ OPSDECK_CHECK_CONCURRENCY: '0' })).toThrow(/OPSDECK_CHECK_CONCURRENCY/);
  });

  it('reads the embedded database\'s table activity every minute unless told otherwise, and refuses what is not a number', () => {
    expect(configWith({}).embeddedVacuumMs).toBe(60_000);
    expect(configWith({ OPSDECK_EMBEDDED_VACUUM_MS: '500' }).embeddedVacuumMs).toBe(500);
    expect(() => configWith({ OPSDECK_EMBEDDED_VACUUM_MS: 'soon' })).toThrow(/OPSDECK_EMBEDDED_VACUUM_MS/);
  });

  it('refuses a vacuum interval beside DATABASE_URL, where PostgreSQL vacuums by itself, rather than ignore it', () => {
    expect(() => configWith({ OPSDECK_EMBEDDED_VACUUM_MS: '500', DATABASE_URL: 'postgres://db/opsdeck' })).toThrow(/applies to the embedded database only/);
    expect(configWith({ DATABASE_URL: 'postgres://db/opsdeck' }).embeddedVacuumMs).toBe(60_000);
  });

  it('refuses a metrics token short enough to guess', () => {
    expect(() => configWith({ OPSDECK_METRICS_TOKEN: 'short' })).toThrow(/OPSDECK_METRICS_TOKEN: must be at least 16 characters/);
  });

  it('refuses a metrics port equal to the console port, which would clash at start', () => {
    expect(() => configWith({ PORT: '8080', OPSDECK_METRICS_PORT: '8080' })).toThrow(/OPSDECK_METRICS_PORT must differ from PORT/);
    expect(configWith({ PORT: '0', OPSDECK_METRICS_PORT: '0' }).metricsPort).toBe(0);
  });

  it('refuses a lease under two seconds or that is not a whole number', () => {
    expect(() => configWith({ OPSDECK_LEASE_SECONDS: '1' })).toThrow(/OPSDECK_LEASE_SECONDS/);
    expect(() => configWith({ OPSDECK_LEASE_SECONDS: '2.5' })).toThrow(/OPSDECK_LEASE_SECONDS/);
    expect(() => configWith({ OPSDECK_EVENT_LEASE_SECONDS: '0' })).toThrow(/OPSDECK_EVENT_LEASE_SECONDS/);
  });
});

describe('where the server listens', () => {
  it('answers this machine only while it seeds the demo data, whose passwords are public, unless HOST says otherwise', () => {
    expect(configWith({})).toMatchObject({ host: '127.0.0.1', hostIsDemoDefault: true });
    expect(configWith({ HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', hostIsDemoDefault: false });
    expect(configWith({ OPSDECK_SEED_DEMO: 'false' })).toMatchObject({ host: '0.0.0.0', hostIsDemoDefault: false });
  });

  it('refuses an empty HOST rather than listening somewhere unsaid', () => {
    expect(() => configWith({ HOST: '' })).toThrow(/HOST/);
  });
});
