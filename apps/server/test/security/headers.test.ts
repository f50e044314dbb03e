import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';

function directives(policy: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (policy ?? '').split(';')) {
    const [name = '', ...values] = part.trim().split(/\s+/);
    if (name !== '') map.set(name, values.join(' '));
  }
  return map;
}

function expectHardened(response: Response, what: string): void {
  const policy = directives(response.headers.get('content-security-policy'));
  expect(policy.get('default-src'), what).toBe("'self'");
  expect(policy.get('script-src'), what).toBe("'self'");
  expect(policy.get('frame-ancestors'), what).toBe("'none'");
  expect(policy.get('object-src'), what).toBe("'none'");
  expect(policy.get('base-uri'), what).toBe("'self'");
  expect(policy.get('form-action'), what).toBe("'self'");
  expect(policy.get('connect-src'), what).toBe("'self'");
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('referrer-policy'), what).toBe('same-origin');
  expect(response.headers.get('cross-origin-opener-policy'), what).toBe('same-origin');
}

/**
 * Without these headers another site can frame the console and trick a click (clickjacking), an injected inline script
 * runs, and a shared cache or the browser's history serves one user's API answers to the next user of the machine.
 */
describe('security headers', () => {
  let server: TestServer;
  let cookie: string;
  let webDist: string;

  beforeAll(async () => {
    // A stand-in for the built web app, so the test does not depend on `npm run build`.
    webDist = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head></html>');
    writeFileSync(path.join(webDist, 'assets', 'index-abc.js'), 'console.log("app")');
    process.env.OPSDECK_WEB_DIST = webDist;
    server = await startTestServer();
    cookie = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
    delete process.env.OPSDECK_WEB_DIST;
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the content security policy and the anti-framing and sniffing headers on pages, assets, API answers and errors', async () => {
    const answers: Array<[string, Response]> = [
      ['page', await fetch(`${server.url}/incidents`)],
      ['asset', await fetch(`${server.url}/assets/index-abc.js`)],
      ['api', await fetch(`${server.url}/api/db/incidents?limit=1`, { headers: { cookie } })],
      ['api 401', await fetch(`${server.url}/api/db/incidents`)],
      ['api 404', await fetch(`${server.url}/api/nothing-here`)],
      ['identity', await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { cookie } })],
      ['openapi', await fetch(`${server.url}/api/openapi.json`)],
      ['csrf refusal', await fetch(`${server.url}/api/db/comments`, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '{}' })],
      ['health', await fetch(`${server.url}/healthz`)],
    ];
    for (const [what, response] of answers) {
      await response.arrayBuffer();
      expectHardened(response, what);
    }
  });

  it('allows no inline script on the page', async () => {
    const response = await fetch(`${server.url}/`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).not.toContain('unsafe-eval');
    expect(directives(policy).get('script-src')).not.toContain('unsafe-inline');
    expect(await response.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('marks every API answer no-store, the failures included, so no cache replays one user\'s data to another', async () => {
    const answers: Array<[string, Response]> = [
      ['data api', await fetch(`${server.url}/api/db/people?limit=1`, { headers: { cookie } })],
      ['whoami', await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { cookie } })],
      ['401', await fetch(`${server.url}/api/db/people`)],
      ['403', await fetch(`${server.url}/api/db/comments`, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '{}' })],
      ['404', await fetch(`${server.url}/api/nothing-here`)],
      ['version', await fetch(`${server.url}/api/version`)],
      ['openapi', await fetch(`${server.url}/api/openapi.json`)],
      ['healthz', await fetch(`${server.url}/healthz`)],
    ];
    for (const [what, response] of answers) {
      await response.arrayBuffer();
      expect(response.headers.get('cache-control'), what).toBe('no-store');
    }
  });

  it('keeps long-lived caching for hashed assets and keeps the signed-in page itself out of every cache', async () => {
    const asset = await fetch(`${server.url}/assets/index-abc.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await fetch(`${server.url}/settings/people`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const index = await fetch(`${server.url}/index.html`);
    expect(index.headers.get('cache-control')).toBe('no-store');
  });
});
