import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf, TestBrowser } from '../auth-client';
import { startTestServer, type TestServer } from '../harness';

const EVIL_ORIGIN = 'http://evil.example';

/**
 * A page on another site (or on another port or subdomain of the same site, which SameSite=Lax does not stop) makes
 * the browser send the console's session cookie with a request it forges. Each test sends what such a browser
 * would, and checks that nothing was written.
 */
describe('cross-site request forgery', () => {
  let server: TestServer;
  let cookie: string;
  let incidentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.cookieFor('admin');
    const incident = await server.pool.query<{ id: string }>('select id from incidents order by created_at limit 1');
    incidentId = incident.rows[0]?.id ?? '';
    expect(incidentId).not.toBe('');
  });
  afterAll(async () => {
    await server.close();
  });

  async function commentsSaying(text: string): Promise<number> {
    const result = await server.pool.query<{ n: number }>('select count(*)::int as n from comments where comment = $1', [text]);
    return result.rows[0]?.n ?? -1;
  }

  async function postComment(text: string, headers: Record<string, string>, encode: (body: Record<string, string>) => string = JSON.stringify): Promise<Response> {
    return fetch(`${server.url}/api/db/comments`, {
      method: 'POST',
      headers: { cookie, ...headers },
      body: encode({ incident_id: incidentId, comment: text }),
    });
  }

  async function expectRefused(response: Response): Promise<void> {
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'OD_CSRF', message: expect.stringContaining('security violation') });
  }

  it('refuses a cross-site text/plain POST to /api/db/comments with the session cookie and stores no comment', async () => {
    const text = 'forged as text/plain';
    await expectRefused(await postComment(text, { 'content-type': 'text/plain;charset=UTF-8', origin: EVIL_ORIGIN, 'sec-fetch-site': 'cross-site' }));
    // An older browser sends neither Origin nor Sec-Fetch-Site; the content type alone must give the forgery away.
    await expectRefused(await postComment(text, { 'content-type': 'text/plain' }));
    expect(await commentsSaying(text)).toBe(0);
  });

  it('refuses a form-encoded POST with the session cookie, as a hidden auto-submitted form would send it', async () => {
    const text = 'forged as a form';
    const form = (body: Record<string, string>): string => new URLSearchParams(body).toString();
    await expectRefused(await postComment(text, { 'content-type': 'application/x-www-form-urlencoded' }, form));
    await expectRefused(await postComment(text, { 'content-type': 'multipart/form-data; boundary=x' }, () => `--x\r\nContent-Disposition: form-data; name="comment"\r\n\r\n${text}\r\n--x--\r\n`));
    expect(await commentsSaying(text)).toBe(0);
  });

  it('refuses a bodiless POST or DELETE with the session cookie that carries no CSRF header', async () => {
    const before = await server.pool.query<{ n: number }>('select count(*)::int as n from comments');
    const run = await fetch(`${server.url}/api/db/comments?comment=eq.never`, { method: 'DELETE', headers: { cookie } });
    await expectRefused(run);
    const bodiless = await fetch(`${server.url}/api/db/comments`, { method: 'POST', headers: { cookie } });
    await expectRefused(bodiless);
    const after = await server.pool.query<{ n: number }>('select count(*)::int as n from comments');
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });

  it('refuses a JSON POST whose Origin is another site, even with the CSRF header', async () => {
    const text = 'forged from another origin';
    await expectRefused(await postComment(text, { 'content-type': 'application/json', origin: EVIL_ORIGIN }));
    await expectRefused(await postComment(text, { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: EVIL_ORIGIN }));
    // Same host, another port: a different origin that SameSite=Lax cookies still reach.
    const otherPort = new URL(server.url);
    otherPort.port = String(Number(otherPort.port) + 1);
    await expectRefused(await postComment(text, { 'content-type': 'application/json', origin: otherPort.origin }));
    await expectRefused(await postComment(text, { 'content-type': 'application/json', origin: 'null' }));
    expect(await commentsSaying(text)).toBe(0);
  });

  it('refuses a request the browser marks as cross-site or same-site in Sec-Fetch-Site', async () => {
    const text = 'forged, says fetch metadata';
    await expectRefused(await postComment(text, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }));
    await expectRefused(await postComment(text, { 'content-type': 'application/json', 'sec-fetch-site': 'same-site', origin: server.url }));
    expect(await commentsSaying(text)).toBe(0);
  });

  it('accepts a same-origin JSON write from the console, with or without the browser metadata', async () => {
    const created = await postComment('written by the console', { 'content-type': 'application/json', origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(created.status).toBe(201);
    const script = await postComment('written by a script', { 'content-type': 'application/json' });
    expect(script.status).toBe(201);
    expect(await commentsSaying('written by the console')).toBe(1);
    expect(await commentsSaying('written by a script')).toBe(1);
  });

  it('accepts a bodiless DELETE that carries the CSRF header the web client sends', async () => {
    await postComment('to be deleted', { 'content-type': 'application/json' });
    const removed = await fetch(`${server.url}/api/db/comments?comment=eq.${encodeURIComponent('to be deleted')}`, {
      method: 'DELETE',
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest', origin: server.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(removed.status).toBe(204);
    expect(await commentsSaying('to be deleted')).toBe(0);
  });

  it('leaves clients that authenticate with a bearer token alone, since no browser attaches one by itself', async () => {
    const token = cookie.slice(cookie.indexOf('=') + 1);
    const response = await fetch(`${server.url}/api/db/comments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ incident_id: incidentId, comment: 'sent by a bearer client' }),
    });
    expect(response.status).toBe(201);
    expect(await commentsSaying('sent by a bearer client')).toBe(1);
  });

  it('keeps the form-encoded sign-in working from the console and refuses it posted from another origin', async () => {
    const forged = new TestBrowser(server.url);
    const forgedFlow = await forged.startLogin();
    const refused = await forged.request(forgedFlow.ui.action, {
      method: 'POST',
      headers: { origin: EVIL_ORIGIN },
      body: new URLSearchParams({ method: 'password', identifier: 'admin@opsdeck.local', password: 'opsdeck-demo', csrf_token: csrfOf(forgedFlow) }),
    });
    expect(refused.status).toBe(403);
    expect(forged.cookies.has('opsdeck_session')).toBe(false);

    const browser = new TestBrowser(server.url);
    const flow = await browser.startLogin();
    const signedIn = await browser.request(flow.ui.action, {
      method: 'POST',
      headers: { origin: server.url, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ method: 'password', identifier: 'admin@opsdeck.local', password: 'opsdeck-demo', csrf_token: csrfOf(flow) }),
    });
    expect(signedIn.status).toBe(303);
    expect(browser.cookies.has('opsdeck_session')).toBe(true);
  });
});

describe('cross-site request forgery behind a TLS-terminating proxy', () => {
  let server: TestServer;
  let cookie: string;
  const previous = process.env.OPSDECK_TRUST_PROXY;

  beforeAll(async () => {
    process.env.OPSDECK_TRUST_PROXY = 'true';
    server = await startTestServer();
    cookie = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
    if (previous === undefined) delete process.env.OPSDECK_TRUST_PROXY;
    else process.env.OPSDECK_TRUST_PROXY = previous;
  });

  async function commentAs(origin: string, forwarded: Record<string, string>): Promise<Response> {
    const incident = await server.pool.query<{ id: string }>('select id from incidents order by created_at limit 1');
    return fetch(`${server.url}/api/db/comments`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin, ...forwarded },
      body: JSON.stringify({ incident_id: incident.rows[0]?.id, comment: `through the proxy from ${origin}` }),
    });
  }

  it('compares Origin with the public origin the proxy forwards, not the internal address', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example.com' };
    expect((await commentAs('https://console.example.com', forwarded)).status).toBe(201);
    const internal = await commentAs(server.url, forwarded);
    expect(internal.status).toBe(403);
    const downgraded = await commentAs('http://console.example.com', forwarded);
    expect(downgraded.status).toBe(403);
  });
});
