import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/shared/session-token';
import { startTestServer, type TestServer } from '../harness';

const EVIL_ORIGIN = 'https://evil.example';

describe('minting a kubeconfig', () => {
  let server: TestServer;
  let cookie: string;

  /** The sessions of the editor whose cookie the test holds, kubeconfig tokens included. */
  async function editorSessions(): Promise<number> {
    const result = await server.pool.query<{ n: number }>(
      `select count(*)::int as n from sessions s join people p on p.id = s.identity_id where p.email = 'editor@opsdeck.local'`,
    );
    return result.rows[0]?.n ?? 0;
  }

  function mint(method: string, headers: Record<string, string>, body?: string): Promise<Response> {
    return fetch(`${server.url}/api/kubeconfig`, { method, headers: { cookie, ...headers }, redirect: 'manual', ...(body === undefined ? {} : { body }) });
  }

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.cookieFor('editor');
  });
  afterAll(async () => {
    await server.close();
  });

  it('mints nothing for a cross-site top-level GET that carries the session cookie, and answers 405 with a hint', async () => {
    const before = await editorSessions();
    // What a browser sends when another site navigates it here: the SameSite=Lax cookie goes along with a top-level GET.
    const response = await mint('GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const body = (await response.json()) as { code: string; hint: string | null };
    expect(body.code).toBe('OD_KUBECONFIG_POST_ONLY');
    expect(body.hint).toContain('POST');
    expect(await editorSessions()).toBe(before);
  });

  it('refuses a POST that meets neither half of the CSRF rule: a cross-site form, and a same-site form without X-Requested-With', async () => {
    const before = await editorSessions();
    const crossSiteForm = await mint('POST', { origin: EVIL_ORIGIN, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect(crossSiteForm.status).toBe(403);
    expect(((await crossSiteForm.json()) as { code: string }).code).toBe('OD_CSRF');
    const bareForm = await mint('POST', { 'content-type': 'text/plain' }, 'a=1');
    expect(bareForm.status).toBe(403);
    expect(((await bareForm.json()) as { code: string }).code).toBe('OD_CSRF');
    const bodiless = await mint('POST', {});
    expect(bodiless.status).toBe(403);
    expect(await editorSessions()).toBe(before);
  });

  it('refuses a POST that names another origin, even with X-Requested-With', async () => {
    const before = await editorSessions();
    const foreignOrigin = await mint('POST', { 'x-requested-with': 'XMLHttpRequest', origin: EVIL_ORIGIN });
    expect(foreignOrigin.status).toBe(403);
    expect(((await foreignOrigin.json()) as { code: string }).code).toBe('OD_CSRF');
    const foreignSite = await mint('POST', { 'x-requested-with': 'XMLHttpRequest', 'sec-fetch-site': 'same-site' });
    expect(foreignSite.status).toBe(403);
    expect(await editorSessions()).toBe(before);
  });

  it('mints one 30-day kubeconfig session for a same-origin POST from the console', async () => {
    const before = await editorSessions();
    const response = await mint('POST', { 'x-requested-with': 'XMLHttpRequest', origin: server.url, 'sec-fetch-site': 'same-origin', accept: 'application/yaml' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="kubeconfig.yaml"');
    const token = /token: (\S+)/.exec(await response.text())?.[1] ?? '';
    expect(token).not.toBe('');
    expect(await editorSessions()).toBe(before + 1);
    const minted = await server.pool.query<{ days: number; method: string }>(
      `select round(extract(epoch from expires_at - issued_at) / 86400)::int as days, authentication_methods -> 0 ->> 'method' as method
         from sessions where token_hash = $1`,
      [hashToken(token)],
    );
    expect(minted.rows).toEqual([{ days: 30, method: 'kubeconfig' }]);
  });

  it('describes POST as the way to mint and GET as a 405 in the OpenAPI document', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`, { headers: { cookie } });
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>> };
    const operations = document.paths['/api/kubeconfig'] ?? {};
    expect(operations.post?.summary).toMatch(/kubeconfig/i);
    expect(Object.keys(operations.post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '403']));
    expect(Object.keys(operations.get?.responses ?? {})).toContain('405');
  });
});
