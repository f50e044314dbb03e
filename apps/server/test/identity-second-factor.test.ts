import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unseal } from '../src/auth/factors/second-factor-store';
import { LOGIN_FAILURE_LIMIT } from '../src/auth/login/password-login';
import { TEST_SECRET_KEY } from './global-setup';
import { TestBrowser } from './auth-client';
import { startTestServer, type TestServer } from './harness';
import { SoftwareAuthenticator } from './identity-second-factor-webauthn';
import {
  apiStatus,
  createPerson,
  inputNamed,
  json,
  PASSWORD,
  shownCodes,
  signedIn,
  startLogin,
  startSettings,
  submitLogin,
  submitSettings,
  totpCode,
  totpSecretOf,
  whoami,
  type ErrorBody,
  type Flow,
  type SessionBody,
} from './identity-settings-client';

const STEP_MS = 30_000;

interface LoginAnswer {
  session: SessionBody;
  continue_with?: { action: string; redirect_browser_to: string }[];
}

describe('second factors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Signs in with the password only: a person with a second factor gets an aal1 session that still owes it. */
  async function passwordOnly(email: string): Promise<{ browser: TestBrowser; answer: LoginAnswer }> {
    const browser = new TestBrowser(server.url);
    const response = await browser.signIn(email, PASSWORD);
    expect(response.status).toBe(200);
    return { browser, answer: await json<LoginAnswer>(response) };
  }

  /** Links an authenticator app through the settings flow; answers the key. */
  async function enrolTotp(browser: TestBrowser): Promise<string> {
    const flow = await startSettings(browser);
    const secret = totpSecretOf(flow);
    const response = await submitSettings(browser, flow, { method: 'totp', totp_code: totpCode(secret) });
    expect(response.status).toBe(200);
    expect((await json<Flow>(response)).state).toBe('success');
    return secret;
  }

  async function sessionsOf(identityId: string): Promise<number> {
    return (await server.pool.query('select 1 from sessions where identity_id = $1 and active', [identityId])).rowCount ?? 0;
  }

  describe('TOTP', () => {
    let identityId: string;
    let secret: string;

    it('links an authenticator app with a code from the key the flow shows, and refuses a wrong code first', async () => {
      identityId = await createPerson(server, 'totp@example.test');
      const earlier = await signedIn(server, 'totp@example.test');
      const b = await signedIn(server, 'totp@example.test');
      const flow = await startSettings(b);
      const wrong = await submitSettings(b, flow, { method: 'totp', totp_code: '000000' === totpCode(totpSecretOf(flow)) ? '111111' : '000000' });
      expect(wrong.status).toBe(400);
      expect(inputNamed(await json<Flow>(wrong), 'totp_code')?.messages.map((message) => message.id)).toEqual([4000008]);

      // The key offered stays the same after a wrong code, until a right one links it.
      secret = totpSecretOf(await json<Flow>(await b.json(`/api/auth/self-service/settings/flows?id=${flow.id}`)));
      expect(secret).toBe(totpSecretOf(flow));
      const linked = await submitSettings(b, flow, { method: 'totp', totp_code: totpCode(secret) });
      expect(linked.status).toBe(200);
      expect((await json<Flow>(linked)).state).toBe('success');
      const stored = await server.pool.query<{ config: string }>(`select config::text from identity_credentials where identity_id = $1 and type = 'totp'`, [identityId]);
      expect(stored.rows[0]?.config).not.toContain(secret);
      // The browser that proved the code is at aal2 now; the older session is over.
      const me = await whoami(b);
      expect(me.status).toBe(200);
      expect(me.body.authenticator_assurance_level).toBe('aal2');
      expect((await whoami(earlier)).status).toBe(401);
      const settings = await startSettings(b);
      expect(settings.ui.nodes.filter((node) => node.group === 'totp').map((node) => node.attributes.name)).toEqual(['totp_unlink']);
    });

    it('gives a password sign-in an aal1 session that whoami answers with 403 session_aal2_required and the API with 401', async () => {
      const { browser, answer } = await passwordOnly('totp@example.test');
      expect(answer.session.authenticator_assurance_level).toBe('aal1');
      expect(answer.continue_with).toEqual([{ action: 'redirect_browser_to', redirect_browser_to: '/login?aal=aal2' }]);
      const me = await whoami(browser);
      expect(me.status).toBe(403);
      expect(me.body.error.id).toBe('session_aal2_required');
      expect(me.body.redirect_browser_to).toBe('/login?aal=aal2');
      expect(await apiStatus(server, browser)).toBe(401);
      const settings = await browser.json('/api/auth/self-service/settings/browser');
      expect(settings.status).toBe(403);
      expect((await json<ErrorBody>(settings)).error.id).toBe('session_aal2_required');
      // Such a session is not signed in: a plain login flow is still offered.
      expect((await browser.json('/api/auth/self-service/login/browser')).status).toBe(200);
    });

    it('lets a session that still owes its second factor sign out', async () => {
      const { browser } = await passwordOnly('totp@example.test');
      const link = await browser.json('/api/auth/self-service/logout/browser');
      expect(link.status).toBe(200);
      const url = new URL((await json<{ logout_url: string }>(link)).logout_url);
      expect((await browser.json(`${url.pathname}${url.search}`)).status).toBe(204);
      expect((await whoami(browser)).status).toBe(401);
    });

    it('redirects a browser form sign-in to the aal2 step, keeping return_to', async () => {
      const browser = new TestBrowser(server.url);
      const flow = await startLogin(browser, '?return_to=/incidents');
      const response = await browser.request(flow.ui.action, {
        method: 'POST',
        body: new URLSearchParams({ method: 'password', identifier: 'totp@example.test', password: PASSWORD, csrf_token: String(inputNamed(flow, 'csrf_token')?.attributes.value) }),
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/login?aal=aal2&return_to=%2Fincidents');
    });

    it('raises the same session to aal2 with a code of the next step, and refuses that code a second time', async () => {
      const { browser, answer } = await passwordOnly('totp@example.test');
      const flow = await startLogin(browser, '?aal=aal2');
      expect(flow).toMatchObject({ requested_aal: 'aal2', refresh: false });
      expect(flow.ui.nodes.filter((node) => node.attributes.node_type === 'input').map((node) => `${node.group}:${node.attributes.name}`)).toEqual([
        'default:csrf_token',
        'totp:totp_code',
        'totp:method',
      ]);
      const before = await sessionsOf(identityId);
      // The enrolment spent the current step; the app's next code (one step ahead) is inside the window.
      const code = totpCode(secret, Date.now() + STEP_MS);
      const response = await submitLogin(browser, flow, { method: 'totp', totp_code: code });
      expect(response.status).toBe(200);
      const upgraded = await json<LoginAnswer>(response);
      expect(upgraded.session.id).toBe(answer.session.id);
      expect(upgraded.session.authenticator_assurance_level).toBe('aal2');
      expect(upgraded.continue_with).toBeUndefined();
      expect(upgraded.session.authentication_methods.map((method) => `${method.method}:${method.aal}`)).toEqual(['password:aal1', 'totp:aal2']);
      expect(await sessionsOf(identityId)).toBe(before);
      expect((await whoami(browser)).status).toBe(200);
      expect(await apiStatus(server, browser)).toBe(200);
      expect((await browser.json('/api/auth/self-service/login/browser?aal=aal2')).status).toBe(400);
      const confirm = await startLogin(browser, '?aal=aal2&refresh=true');
      expect(confirm).toMatchObject({ requested_aal: 'aal2', refresh: true });

      const replay = await passwordOnly('totp@example.test');
      const replayFlow = await startLogin(replay.browser, '?aal=aal2');
      const refused = await submitLogin(replay.browser, replayFlow, { method: 'totp', totp_code: code });
      expect(refused.status).toBe(400);
      expect(inputNamed(await json<Flow>(refused), 'totp_code')?.messages.map((message) => message.id)).toEqual([4000008]);
      expect((await whoami(replay.browser)).status).toBe(403);
    });

    it('refuses a code two steps away', async () => {
      await server.pool.query(`update identity_credentials set config = config - 'last_used_step' where identity_id = $1 and type = 'totp'`, [identityId]);
      const { browser } = await passwordOnly('totp@example.test');
      const flow = await startLogin(browser, '?aal=aal2');
      const response = await submitLogin(browser, flow, { method: 'totp', totp_code: totpCode(secret, Date.now() + 2 * STEP_MS) });
      expect(response.status).toBe(400);
    });

    it('counts wrong codes as failed sign-ins, refusing the eleventh attempt with 429 even with the right code', async () => {
      const id = await createPerson(server, 'guesser@example.test');
      const key = await enrolTotp(await signedIn(server, 'guesser@example.test'));
      await server.pool.query(`update identity_credentials set config = config - 'last_used_step' where identity_id = $1 and type = 'totp'`, [id]);
      const { browser } = await passwordOnly('guesser@example.test');
      const flow = await startLogin(browser, '?aal=aal2');
      const right = totpCode(key);
      const wrong = right === '123456' ? '654321' : '123456';
      for (let attempt = 0; attempt < LOGIN_FAILURE_LIMIT; attempt += 1) {
        expect((await submitLogin(browser, flow, { method: 'totp', totp_code: wrong })).status).toBe(400);
      }
      const blocked = await submitLogin(browser, flow, { method: 'totp', totp_code: right });
      expect(blocked.status).toBe(429);
      expect((await json<ErrorBody>(blocked)).error.id).toBe('self_service_flow_rate_limited');
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('unlinks the app: other sessions end and the password alone signs in fully again', async () => {
      const { browser } = await passwordOnly('totp@example.test');
      await server.pool.query(`update identity_credentials set config = config - 'last_used_step' where identity_id = $1 and type = 'totp'`, [identityId]);
      const flow = await startLogin(browser, '?aal=aal2');
      expect((await submitLogin(browser, flow, { method: 'totp', totp_code: totpCode(secret) })).status).toBe(200);
      const other = await passwordOnly('totp@example.test');
      const settings = await startSettings(browser);
      const response = await submitSettings(browser, settings, { totp_unlink: 'true' });
      expect(response.status).toBe(200);
      expect((await whoami(other.browser)).status).toBe(401);
      const again = await passwordOnly('totp@example.test');
      expect(again.answer.continue_with).toBeUndefined();
      expect((await whoami(again.browser)).status).toBe(200);
    });
  });

  describe('backup recovery codes at sign-in', () => {
    it('accepts each code once, after which reveal shows it as Used', async () => {
      const id = await createPerson(server, 'backup@example.test');
      const b = await signedIn(server, 'backup@example.test');
      await enrolTotp(b);
      const flow = await startSettings(b);
      const codes = shownCodes(await json<Flow>(await submitSettings(b, flow, { lookup_secret_regenerate: 'true' })));
      expect((await submitSettings(b, flow, { lookup_secret_confirm: 'true' })).status).toBe(200);
      const [first = ''] = codes;

      const { browser } = await passwordOnly('backup@example.test');
      const step = await startLogin(browser, '?aal=aal2');
      expect(step.ui.nodes.map((node) => `${node.group}:${String(node.attributes.name)}`)).toEqual(
        expect.arrayContaining(['lookup_secret:lookup_secret', 'lookup_secret:method']),
      );
      const used = await submitLogin(browser, step, { method: 'lookup_secret', lookup_secret: first.toUpperCase() });
      expect(used.status).toBe(200);
      expect((await json<LoginAnswer>(used)).session.authentication_methods.at(-1)).toMatchObject({ method: 'lookup_secret', aal: 'aal2' });

      const again = await passwordOnly('backup@example.test');
      const againStep = await startLogin(again.browser, '?aal=aal2');
      const refused = await submitLogin(again.browser, againStep, { method: 'lookup_secret', lookup_secret: first });
      expect(refused.status).toBe(400);
      expect(inputNamed(await json<Flow>(refused), 'lookup_secret')?.messages.map((message) => message.id)).toEqual([4000016]);

      const revealFlow = await startSettings(browser);
      const revealed = shownCodes(await json<Flow>(await submitSettings(browser, revealFlow, { lookup_secret_reveal: 'true' })));
      expect(revealed[0]).toBe('Used');
      expect(revealed.slice(1)).toEqual(codes.slice(1));
      expect(await sessionsOf(id)).toBeGreaterThan(0);
    });
  });

  describe('WebAuthn', () => {
    let identityId: string;
    let key: SoftwareAuthenticator;

    async function registrationFlow(browser: TestBrowser): Promise<{ flow: Flow; options: { challenge: string; rp: { id: string } } }> {
      const flow = await startSettings(browser);
      const trigger = inputNamed(flow, 'webauthn_register_trigger');
      return { flow, options: JSON.parse(String(trigger?.attributes.value)) as { challenge: string; rp: { id: string } } };
    }

    it('refuses a registration made on another origin or for another challenge', async () => {
      identityId = await createPerson(server, 'webauthn@example.test');
      const b = await signedIn(server, 'webauthn@example.test');
      key = new SoftwareAuthenticator(server.url);
      for (const overrides of [{ origin: 'http://evil.example' }, { challenge: Buffer.from('another challenge').toString('base64url') }]) {
        const { flow, options } = await registrationFlow(b);
        const response = await submitSettings(b, flow, { method: 'webauthn', webauthn_register: JSON.stringify(key.register(options, overrides)), webauthn_register_displayname: 'Bad' });
        expect(response.status).toBe(400);
        expect((await json<Flow>(response)).ui.messages?.map((message) => message.id)).toEqual([4000019]);
      }
      expect((await server.pool.query(`select 1 from identity_credentials where identity_id = $1 and type = 'webauthn'`, [identityId])).rowCount).toBe(0);
    });

    it('registers a security key under its name, listing it with a remove button', async () => {
      const b = await signedIn(server, 'webauthn@example.test');
      const { flow, options } = await registrationFlow(b);
      const response = await submitSettings(b, flow, { method: 'webauthn', webauthn_register: JSON.stringify(key.register(options)), webauthn_register_displayname: 'Desk key' });
      expect(response.status).toBe(200);
      const saved = await json<Flow>(response);
      expect(saved.state).toBe('success');
      const remove = inputNamed(saved, 'webauthn_remove', key.id);
      expect(remove?.meta.label).toMatchObject({ text: 'Remove security key "Desk key"', context: { display_name: 'Desk key' } });
      const stored = await server.pool.query<{ config: { credentials: unknown[] } }>(`select config from identity_credentials where identity_id = $1 and type = 'webauthn'`, [identityId]);
      expect(stored.rows[0]?.config.credentials).toEqual([
        { id: key.id, publicKey: expect.stringMatching(/^[A-Za-z0-9_-]+$/), counter: 0, transports: ['usb'], name: 'Desk key', created_at: expect.any(String) },
      ]);
      expect((await whoami(b)).body.authenticator_assurance_level).toBe('aal2');
    });

    it('signs in with the key at the aal2 step, storing its counter, and refuses a wrong origin or a replayed counter', async () => {
      const { browser } = await passwordOnly('webauthn@example.test');
      expect((await whoami(browser)).status).toBe(403);
      const flow = await startLogin(browser, '?aal=aal2');
      expect(inputNamed(flow, 'webauthn_login')?.attributes.type).toBe('hidden');
      const options = JSON.parse(String(inputNamed(flow, 'webauthn_login_trigger')?.attributes.value)) as { challenge: string; rpId: string; allowCredentials: { id: string }[] };
      expect(options.rpId).toBe('127.0.0.1');
      expect(options.allowCredentials.map((credential) => credential.id)).toEqual([key.id]);

      const elsewhere = await submitLogin(browser, flow, { method: 'webauthn', webauthn_login: JSON.stringify(key.authenticate(options, { origin: 'http://evil.example' })) });
      expect(elsewhere.status).toBe(400);
      expect((await json<Flow>(elsewhere)).ui.messages?.map((message) => message.id)).toEqual([4000015]);
      const response = await submitLogin(browser, flow, { method: 'webauthn', webauthn_login: JSON.stringify(key.authenticate(options)) });
      expect(response.status).toBe(200);
      expect((await json<LoginAnswer>(response)).session.authenticator_assurance_level).toBe('aal2');
      const counter = await server.pool.query<{ counter: number }>(
        `select (config->'credentials'->0->>'counter')::int as counter from identity_credentials where identity_id = $1 and type = 'webauthn'`,
        [identityId],
      );
      expect(counter.rows[0]?.counter).toBe(2);

      const replay = await passwordOnly('webauthn@example.test');
      const replayFlow = await startLogin(replay.browser, '?aal=aal2');
      const replayOptions = JSON.parse(String(inputNamed(replayFlow, 'webauthn_login_trigger')?.attributes.value)) as { challenge: string; rpId: string };
      key.rewind(1);
      expect((await submitLogin(replay.browser, replayFlow, { method: 'webauthn', webauthn_login: JSON.stringify(key.authenticate(replayOptions)) })).status).toBe(400);
      key.rewind(2);
      expect((await submitLogin(replay.browser, replayFlow, { method: 'webauthn', webauthn_login: JSON.stringify(key.authenticate(replayOptions)) })).status).toBe(200);
    });

    it('removes the key by id, after which the password alone signs in fully', async () => {
      const b = await signedIn(server, 'webauthn@example.test');
      expect((await whoami(b)).status).toBe(403);
      const step = await startLogin(b, '?aal=aal2');
      const options = JSON.parse(String(inputNamed(step, 'webauthn_login_trigger')?.attributes.value)) as { challenge: string; rpId: string };
      expect((await submitLogin(b, step, { method: 'webauthn', webauthn_login: JSON.stringify(key.authenticate(options)) })).status).toBe(200);
      const flow = await startSettings(b);
      expect((await submitSettings(b, flow, { webauthn_remove: 'not-a-key' })).status).toBe(400);
      expect((await submitSettings(b, flow, { webauthn_remove: key.id })).status).toBe(200);
      expect((await server.pool.query(`select 1 from identity_credentials where identity_id = $1 and type = 'webauthn'`, [identityId])).rowCount).toBe(0);
      const again = await passwordOnly('webauthn@example.test');
      expect((await whoami(again.browser)).status).toBe(200);
    });
  });

  describe('the aal2 step itself', () => {
    it('answers 401 session_inactive without a session and a plain 400 for a person without any second factor', async () => {
      const anonymous = await new TestBrowser(server.url).json('/api/auth/self-service/login/browser?aal=aal2');
      expect(anonymous.status).toBe(401);
      expect((await json<ErrorBody>(anonymous)).error.id).toBe('session_inactive');
      await createPerson(server, 'single@example.test');
      const b = await signedIn(server, 'single@example.test');
      const response = await b.json('/api/auth/self-service/login/browser?aal=aal2');
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error).toMatchObject({ code: 400, message: 'second factor not available' });
    });

    it('refuses an aal2 flow submitted with another person’s session', async () => {
      const owner = await createPerson(server, 'aal2-owner@example.test');
      await enrolTotp(await signedIn(server, 'aal2-owner@example.test'));
      await server.pool.query(`update identity_credentials set config = config - 'last_used_step' where identity_id = $1 and type = 'totp'`, [owner]);
      const { browser } = await passwordOnly('aal2-owner@example.test');
      const flow = await startLogin(browser, '?aal=aal2');
      await createPerson(server, 'aal2-other@example.test');
      const other = await signedIn(server, 'aal2-other@example.test');
      // The other browser's cookies with the owner's form token: the CSRF check passes, the identity check does not.
      const csrf = browser.cookies.get('opsdeck_csrf') ?? '';
      other.cookies.set('opsdeck_csrf', csrf);
      const response = await submitLogin(other, flow, { method: 'totp', totp_code: '123456' });
      expect(response.status).toBe(403);
      expect((await json<ErrorBody>(response)).error.id).toBe('security_identity_mismatch');
    });
  });

  it('seeds the two-factor demo person with a TOTP key that completes the sign-in', async () => {
    const credential = await server.pool.query<{ config: unknown }>(
      `select c.config from identity_credentials c join people p on p.id = c.identity_id where p.email = '2fa@opsdeck.local' and c.type = 'totp'`,
    );
    const sealed = z.object({ secret: z.string() }).parse(credential.rows[0]?.config).secret;
    const demoSecret = unseal(TEST_SECRET_KEY, sealed);
    const { browser, answer } = await passwordOnly('2fa@opsdeck.local');
    expect(answer.session.authenticator_assurance_level).toBe('aal1');
    const flow = await startLogin(browser, '?aal=aal2');
    const response = await submitLogin(browser, flow, { method: 'totp', totp_code: totpCode(demoSecret) });
    expect(response.status).toBe(200);
    const me = await whoami(browser);
    expect(me.body.person).toMatchObject({ name: 'Tess Twofactor', email: '2fa@opsdeck.local' });
    expect(me.body.authenticator_assurance_level).toBe('aal2');
  });
});
