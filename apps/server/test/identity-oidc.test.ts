import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/shared/session-token';
import { startTestServer, type TestServer } from './harness';
import { TestBrowser, type KratosErrorResponse } from './auth-client';

const CLIENT_ID = 'opsdeck-console';
const CLIENT_SECRET = 'a-client-secret-only-the-test-provider-and-server-know';

interface AccountClaims {
  email: string;
  email_verified?: boolean;
  name: string;
  roles?: string[];
  organizations?: (string | { id: string; name: string })[];
}

interface WhoamiBody {
  authentication_methods: { method: string }[];
  identity: { id: string; traits: { email?: string; name?: { first?: string; last?: string } } };
  person: { id: string; name: string; email: string | null };
  roles: string[];
}

interface OrganizationsBody {
  organizations: { id: string; name: string }[];
  current: { id: string; name: string } | null;
}

/** What the test provider says about each of its accounts; a test changes an entry to change the next sign-in. */
const accounts = new Map<string, AccountClaims>();

/**
 * The person at the provider's pages: a cookie jar for the provider's origin that follows its redirects and answers
 * the development login and consent forms, until the provider sends the browser back to the console.
 */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly issuer: string) {}

  private async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /**
   * Signs in as `accountId` from the authorization URL on (or, with `cancel`, gives up on the provider's sign-in page);
   * returns the URL the provider sends the browser back to.
   */
  async authorize(authorizationUrl: string, accountId: string, options: { cancel?: boolean } = {}): Promise<URL> {
    let url = new URL(authorizationUrl);
    for (let step = 0; step < 12; step += 1) {
      if (url.origin !== this.issuer) return url;
      let response: Response;
      if (options.cancel === true && /^\/interaction\/[^/]+$/.test(url.pathname)) {
        response = await this.fetch(`${url.href}/abort`);
      } else if (url.pathname.startsWith('/interaction/')) {
        const page = await (await this.fetch(url.href)).text();
        const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
        if (prompt === undefined) throw new Error(`no prompt on the provider's page: ${page.slice(0, 200)}`);
        const form = new URLSearchParams({ prompt });
        if (prompt === 'login') form.set('login', accountId);
        response = await this.fetch(url.href, { method: 'POST', body: form });
      } else {
        response = await this.fetch(url.href);
      }
      const location = response.headers.get('location');
      if (location === null) throw new Error(`the provider answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`);
      url = new URL(location, url);
    }
    throw new Error('the provider kept redirecting');
  }
}

describe('hosted mode: sign-in through an OpenID Connect provider', () => {
  let server: TestServer;
  let providerServer: Server;
  let issuer: string;

  beforeAll(async () => {
    // The provider's address goes into the console's configuration and the console's into the provider's client, so
    // the provider's port is taken first and the provider itself is built once the console listens.
    let provider: Provider | null = null;
    providerServer = createServer((request, response) => {
      if (provider === null) {
        response.statusCode = 503;
        response.end();
        return;
      }
      void provider.callback()(request, response);
    });
    await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
    server = await startTestServer({
      env: {
        OPSDECK_OIDC_ISSUER: issuer,
        OPSDECK_OIDC_CLIENT_ID: CLIENT_ID,
        OPSDECK_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OPSDECK_OIDC_PROVIDER_NAME: 'Test Provider',
      },
    });
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${server.url}/api/auth/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'roles', 'organizations'] },
      cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => {
          const account = accounts.get(sub);
          if (account === undefined) throw new Error(`unknown test account ${sub}`);
          return { sub, ...account };
        },
      }),
    });
  });

  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => providerServer.close(() => resolve()));
  });

  /** The console's browser starts a sign-in; the answer is the redirect to the provider. */
  async function startSignIn(browser: TestBrowser, query = ''): Promise<string> {
    const response = await browser.request(`/api/auth/oidc/login${query}`);
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${issuer}/`)).toBe(true);
    return location;
  }

  /** Back at the console: the callback's own redirect. */
  async function finishSignIn(browser: TestBrowser, callback: URL): Promise<string> {
    expect(callback.origin).toBe(server.url);
    const response = await browser.request(`${callback.pathname}${callback.search}`);
    expect(response.status).toBe(303);
    return response.headers.get('location') ?? '';
  }

  async function signIn(accountId: string, query = ''): Promise<{ browser: TestBrowser; location: string }> {
    const browser = new TestBrowser(server.url);
    const authorizationUrl = await startSignIn(browser, query);
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl, accountId);
    return { browser, location: await finishSignIn(browser, callback) };
  }

  async function whoami(browser: TestBrowser): Promise<{ status: number; body: WhoamiBody }> {
    const response = await browser.json('/api/auth/sessions/whoami');
    return { status: response.status, body: (await response.json()) as WhoamiBody };
  }

  async function organizations(browser: TestBrowser): Promise<OrganizationsBody> {
    const response = await browser.json('/api/auth/organizations');
    expect(response.status).toBe(200);
    return (await response.json()) as OrganizationsBody;
  }

  it('creates a person on their first sign-in, with the roles of the claim, and whoami answers for the session', async () => {
    accounts.set('grace-1', { email: 'grace@example.test', name: 'Grace Hopper', roles: ['editor', 'not-a-role'] });
    const { browser, location } = await signIn('grace-1', '?return_to=%2Fincidents%3Fstatus%3Dopen');
    expect(location).toBe('/incidents?status=open');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);

    const session = await whoami(browser);
    expect(session.status).toBe(200);
    expect(session.body.authentication_methods.map((method) => method.method)).toEqual(['oidc']);
    expect(session.body.person).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.test' });
    expect(session.body.identity.traits).toEqual({ email: 'grace@example.test', name: { first: 'Grace', last: 'Hopper' } });
    expect(session.body.roles).toEqual(['editor']);

    const credential = await server.pool.query<{ identifiers: string[] }>(
      `select identifiers from identity_credentials where identity_id = $1 and type = 'oidc'`,
      [session.body.person.id],
    );
    expect(credential.rows[0]?.identifiers).toEqual([`${issuer}:grace-1`]);
  });

  it('finds the same person again by email, without regard to case, and replaces their roles with the claim', async () => {
    accounts.set('ken-1', { email: 'ken@example.test', name: 'Ken Thompson', roles: ['responder'] });
    const first = await whoami((await signIn('ken-1')).browser);
    expect(first.body.roles).toEqual(['responder']);

    // Another account at the provider (it re-created the user) whose address differs only in case: the same person.
    accounts.set('ken-2', { email: 'KEN@Example.test', name: 'Ken Thompson', roles: ['commander', 'editor'] });
    const second = await whoami((await signIn('ken-2')).browser);
    expect(second.body.person.id).toBe(first.body.person.id);
    expect(second.body.roles).toEqual(['commander', 'editor']);

    accounts.set('ken-1', { email: 'ken@example.test', name: 'Ken Thompson' });
    const third = await whoami((await signIn('ken-1')).browser);
    expect(third.body.person.id).toBe(first.body.person.id);
    expect(third.body.roles).toEqual(['viewer']);
    const stored = await server.pool.query<{ role: string }>('select role from person_roles where person_id = $1', [first.body.person.id]);
    expect(stored.rows.map((row) => row.role)).toEqual(['viewer']);
  });

  it('links an existing console user by their email address in any case', async () => {
    const existing = await server.pool.query<{ id: string }>(`select id from people where email = 'editor@opsdeck.local'`);
    accounts.set('editor-at-provider', { email: 'EDITOR@OpsDeck.local', name: 'Eddie Editor', roles: ['editor'] });
    const session = await whoami((await signIn('editor-at-provider')).browser);
    expect(session.body.person.id).toBe(existing.rows[0]?.id);
    expect(session.body.person.name).toBe('Eddie Editor');
  });

  it('keeps the admin role of the last administrator when the claim no longer names it', async () => {
    const admin = await server.pool.query<{ id: string }>(`select id from people where email = 'admin@opsdeck.local'`);
    // Whatever else the demo seeds, this person is made the only administrator.
    await server.pool.query(`delete from person_roles where role = 'admin' and person_id <> $1`, [admin.rows[0]?.id]);
    accounts.set('admin-at-provider', { email: 'admin@opsdeck.local', name: 'Ada Admin', roles: ['viewer'] });
    const session = await whoami((await signIn('admin-at-provider')).browser);
    expect(session.body.person.id).toBe(admin.rows[0]?.id);
    expect(session.body.roles).toEqual(['admin', 'viewer']);
  });

  it('lets a person who set up an authenticator app sign in through the provider without owing the closed aal2 step', async () => {
    await server.pool.query(
      `insert into identity_credentials (identity_id, type, config)
       select id, 'totp', '{}'::jsonb from people where email = 'commander@opsdeck.local'
       on conflict (identity_id, type) do nothing`,
    );
    accounts.set('commander-at-provider', { email: 'commander@opsdeck.local', name: 'Cora Commander', roles: ['commander'] });
    const session = await whoami((await signIn('commander-at-provider')).browser);
    expect(session.status).toBe(200);
    expect(session.body.roles).toEqual(['commander']);
  });

  it('refuses an address the provider says it has not verified', async () => {
    accounts.set('unverified-1', { email: 'grace@example.test', email_verified: false, name: 'Not Grace' });
    const { browser, location } = await signIn('unverified-1');
    expect(location).toBe('/login?oidc_error=email_unverified');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a callback whose state was tampered with', async () => {
    accounts.set('mallory-1', { email: 'mallory@example.test', name: 'Mallory' });
    const browser = new TestBrowser(server.url);
    const authorizationUrl = new URL(await startSignIn(browser));
    authorizationUrl.searchParams.set('state', 'a-state-the-console-never-issued');
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl.href, 'mallory-1');
    expect(await finishSignIn(browser, callback)).toBe('/login?oidc_error=sign_in_failed');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses an ID token that carries another nonce than the one the console sent', async () => {
    accounts.set('mallory-1', { email: 'mallory@example.test', name: 'Mallory' });
    const browser = new TestBrowser(server.url);
    const authorizationUrl = new URL(await startSignIn(browser));
    authorizationUrl.searchParams.set('nonce', 'a-nonce-the-console-never-issued');
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl.href, 'mallory-1');
    expect(await finishSignIn(browser, callback)).toBe('/login?oidc_error=sign_in_failed');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const created = await server.pool.query(`select 1 from people where email = 'mallory@example.test'`);
    expect(created.rowCount).toBe(0);
  });

  it('says so when the person cancels at the provider', async () => {
    accounts.set('mallory-1', { email: 'mallory@example.test', name: 'Mallory' });
    const browser = new TestBrowser(server.url);
    const authorizationUrl = await startSignIn(browser, '?return_to=/health');
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl, 'mallory-1', { cancel: true });
    expect(await finishSignIn(browser, callback)).toBe('/login?oidc_error=access_denied&return_to=%2Fhealth');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a callback that reaches a browser which did not start the sign-in', async () => {
    accounts.set('mallory-1', { email: 'mallory@example.test', name: 'Mallory' });
    const authorizationUrl = await startSignIn(new TestBrowser(server.url));
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl, 'mallory-1');
    const victim = new TestBrowser(server.url);
    expect(await finishSignIn(victim, callback)).toBe('/login?oidc_error=sign_in_expired');
    expect(victim.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a return_to on another origin before going to the provider', async () => {
    const browser = new TestBrowser(server.url);
    for (const target of ['https://evil.example/', '//evil.example', '/\\evil.example']) {
      const response = await browser.request(`/api/auth/oidc/login?return_to=${encodeURIComponent(target)}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_return_to_forbidden');
    }
  });

  it('lists the organizations of the claim, asks for a choice among several, and switches only to one of them', async () => {
    accounts.set('other-org-1', { email: 'initech@example.test', name: 'Peter Gibbons', organizations: [{ id: 'initech', name: 'Initech' }] });
    const other = await signIn('other-org-1');
    expect(other.location).toBe('/');
    expect(await organizations(other.browser)).toEqual({ organizations: [{ id: 'initech', name: 'Initech' }], current: { id: 'initech', name: 'Initech' } });

    accounts.set('multi-org-1', {
      email: 'linus@example.test',
      name: 'Linus T',
      roles: ['responder'],
      organizations: [{ id: 'acme', name: 'Acme Corp' }, 'globex', 42 as unknown as string],
    });
    const { browser, location } = await signIn('multi-org-1', '?return_to=/health');
    expect(location).toBe('/organizations/select?return_to=%2Fhealth');
    expect(await organizations(browser)).toEqual({
      organizations: [
        { id: 'acme', name: 'Acme Corp' },
        { id: 'globex', name: 'globex' },
      ],
      current: null,
    });

    const switched = await browser.json('/api/auth/organizations/switch', { method: 'POST', body: JSON.stringify({ id: 'globex' }) });
    expect(switched.status).toBe(200);
    expect(((await switched.json()) as OrganizationsBody).current).toEqual({ id: 'globex', name: 'globex' });

    for (const foreign of ['initech', 'no-such-organization']) {
      const refused = await browser.json('/api/auth/organizations/switch', { method: 'POST', body: JSON.stringify({ id: foreign }) });
      expect(refused.status).toBe(403);
    }
    expect((await organizations(browser)).current).toEqual({ id: 'globex', name: 'globex' });

    // The choice is remembered: the next session starts in it, and the provider dropping an organization ends it.
    const again = await signIn('multi-org-1', '?return_to=/health');
    expect(again.location).toBe('/health');
    expect((await organizations(again.browser)).current).toEqual({ id: 'globex', name: 'globex' });
    accounts.set('multi-org-1', { email: 'linus@example.test', name: 'Linus T', organizations: ['acme'] });
    const fewer = await signIn('multi-org-1');
    expect(await organizations(fewer.browser)).toEqual({ organizations: [{ id: 'acme', name: 'Acme Corp' }], current: { id: 'acme', name: 'Acme Corp' } });
  });

  it('refuses a deactivated or deleted person even though the provider vouches for them', async () => {
    accounts.set('leaver-1', { email: 'leaver@example.test', name: 'Lee Leaver', roles: ['editor'] });
    const first = await whoami((await signIn('leaver-1')).browser);
    const personId = first.body.person.id;

    await server.pool.query(`update identities set state = 'inactive' where id = $1`, [personId]);
    const inactive = await signIn('leaver-1');
    expect(inactive.location).toBe('/login?oidc_error=identity_inactive');
    expect(inactive.browser.cookies.has(SESSION_COOKIE)).toBe(false);

    await server.pool.query(`update identities set state = 'active' where id = $1`, [personId]);
    await server.pool.query('update people set deleted_at = now() where id = $1', [personId]);
    const deleted = await signIn('leaver-1');
    expect(deleted.location).toBe('/login?oidc_error=identity_deleted');
    expect(deleted.browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('closes the built-in password flows, and says sign-in goes through the provider', async () => {
    const browser = new TestBrowser(server.url);
    const attempts: [string, RequestInit][] = [
      ['/api/auth/self-service/login/browser', {}],
      ['/api/auth/self-service/login/flows?id=00000000-0000-4000-8000-000000000000', {}],
      ['/api/auth/self-service/registration/browser', {}],
      ['/api/auth/self-service/recovery/browser', {}],
      ['/api/auth/self-service/verification/browser', {}],
      ['/api/auth/self-service/settings/browser', {}],
      ['/api/auth/self-service/login?flow=00000000-0000-4000-8000-000000000000', { method: 'POST', body: JSON.stringify({ method: 'password', identifier: 'admin@opsdeck.local', password: 'opsdeck-demo' }) }],
    ];
    for (const [path, init] of attempts) {
      const response = await browser.json(path, init);
      expect(response.status, path).toBe(400);
      const body = (await response.json()) as KratosErrorResponse & { redirect_browser_to?: string };
      expect(body.error.id).toBe('self_service_flow_disabled');
      expect(body.error.reason).toContain('Test Provider');
      expect(body.redirect_browser_to).toBe('/login');
    }
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('tells the web which mode answered a refused session check, and still signs out', async () => {
    const anonymous = await new TestBrowser(server.url).json('/api/auth/sessions/whoami');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('opsdeck-auth-mode')).toBe('hosted');

    accounts.set('grace-1', { email: 'grace@example.test', name: 'Grace Hopper', roles: ['editor'] });
    const { browser } = await signIn('grace-1');
    const logout = await browser.json('/api/auth/self-service/logout/browser');
    expect(logout.status).toBe(200);
    const { logout_token: token } = (await logout.json()) as { logout_token: string };
    const ended = await browser.json(`/api/auth/self-service/logout?token=${encodeURIComponent(token)}`);
    expect(ended.status).toBe(204);
    expect((await whoami(browser)).status).toBe(401);
  });

  it('never hands the client secret or the provider tokens to the browser', async () => {
    accounts.set('grace-1', { email: 'grace@example.test', name: 'Grace Hopper', roles: ['editor'] });
    const browser = new TestBrowser(server.url);
    const authorizationUrl = await startSignIn(browser);
    expect(authorizationUrl).not.toContain(CLIENT_SECRET);
    const callback = await new ProviderBrowser(issuer).authorize(authorizationUrl, 'grace-1');
    const response = await browser.request(`${callback.pathname}${callback.search}`);
    const everything = [await response.text(), ...response.headers.values()].join('\n');
    expect(everything).not.toContain(CLIENT_SECRET);
    expect(everything).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });
});
