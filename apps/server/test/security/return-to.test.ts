import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf, TestBrowser, type FlowBody, type KratosErrorResponse } from '../auth-client';
import { startTestServer, type TestServer } from '../harness';

const PASSWORD = 'opsdeck-demo';

describe('return_to after sign-in cannot send the browser to another site', () => {
  let server: TestServer;
  let attacks: string[];

  beforeAll(async () => {
    server = await startTestServer();
    attacks = [
      '/.//evil.com',
      '/..//evil.com',
      '/%2e//evil.com',
      `${server.url}//evil.com`,
      '//evil.example',
      '/\\evil.example',
      '/%2f%2fevil.example',
      '/%5cevil.example',
      '/\t/evil.example',
      'https://evil.example',
      `http://${new URL(server.url).host}@evil.example`,
      'javascript:alert(1)',
    ];
  });
  afterAll(async () => {
    await server.close();
  });

  /** Where a browser that received this Location from the console would go. */
  function destination(response: Response): string {
    return new URL(response.headers.get('location') ?? '', `${server.url}/api/auth/self-service/login`).origin;
  }

  function expectOwnPath(response: Response, raw: string): void {
    expect(response.status, raw).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith('/'), `${raw} -> ${location}`).toBe(true);
    expect(location.startsWith('//') || location.startsWith('/\\'), `${raw} -> ${location}`).toBe(false);
    expect(destination(response), `${raw} -> ${location}`).toBe(new URL(server.url).origin);
  }

  it('refuses each attack when a login flow is created, with self_service_flow_return_to_forbidden', async () => {
    for (const raw of attacks) {
      const response = await new TestBrowser(server.url).json(`/api/auth/self-service/login/browser?return_to=${encodeURIComponent(raw)}`);
      expect(response.status, raw).toBe(400);
      expect(((await response.json()) as KratosErrorResponse).error.id, raw).toBe('self_service_flow_return_to_forbidden');
    }
  });

  it('never redirects a signed-in browser off the console from the login flow', async () => {
    const b = new TestBrowser(server.url);
    expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
    for (const raw of attacks) {
      const response = await b.request(`/api/auth/self-service/login/browser?return_to=${encodeURIComponent(raw)}`);
      if (response.status === 400) continue;
      expectOwnPath(response, raw);
    }
    const ordinary = await b.request('/api/auth/self-service/login/browser?return_to=%2Fincidents%2F42');
    expect(ordinary.status).toBe(303);
    expect(ordinary.headers.get('location')).toBe('/incidents/42');
  });

  it('sends a browser to a single-slash path on the console after a form sign-in, even from a flow stored with a bad return_to', async () => {
    for (const raw of ['/.//evil.com', '//evil.com', '/%2f%2fevil.example']) {
      const b = new TestBrowser(server.url);
      const flow = await b.startLogin();
      // A flow saved before this fix (or written by anything but the parser) may hold the attack verbatim.
      await server.pool.query('update self_service_flows set return_to = $2 where id = $1', [flow.id, raw]);
      const response = await b.submitForm(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
      expectOwnPath(response, raw);
      expect(response.headers.get('location')).toBe('/');
    }
  });

  it('keeps an honest return_to through the form sign-in', async () => {
    const b = new TestBrowser(server.url);
    const flow: FlowBody = await b.startLogin(`?return_to=${encodeURIComponent(`${server.url}/health?tab=1`)}`);
    expect(flow.return_to).toBe('/health?tab=1');
    const response = await b.submitForm(flow, { method: 'password', identifier: 'viewer@opsdeck.local', password: PASSWORD, csrf_token: csrfOf(flow) });
    expectOwnPath(response, 'honest');
    expect(response.headers.get('location')).toBe('/health?tab=1');
  });

  it('never redirects off the console after sign-out either', async () => {
    for (const raw of attacks) {
      const response = await new TestBrowser(server.url).request(`/api/auth/self-service/logout?token=unknown&return_to=${encodeURIComponent(raw)}`);
      if (response.status === 400) continue;
      expectOwnPath(response, raw);
    }
  });
});
