import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/shared/session-token';
import { TestBrowser } from './auth-client';
import { startTestServer, type TestServer } from './harness';
import {
  createPerson,
  inputNamed,
  json,
  nodeWithId,
  PASSWORD,
  shownCodes,
  signedIn,
  startLogin,
  startSettings,
  submitLogin,
  submitSettings,
  totpSecretOf,
  whoami,
  type ErrorBody,
  type Flow,
} from './identity-settings-client';

describe('the settings flow', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('opening it', () => {
    it('answers 401 session_inactive without a session, for creating, reading and submitting', async () => {
      const b = new TestBrowser(server.url);
      for (const response of [
        await b.json('/api/auth/self-service/settings/browser'),
        await b.json('/api/auth/self-service/settings/flows?id=00000000-0000-4000-8000-000000000000'),
        await b.json('/api/auth/self-service/settings?flow=00000000-0000-4000-8000-000000000000', { method: 'POST', body: '{}' }),
      ]) {
        expect(response.status).toBe(401);
        expect((await json<ErrorBody>(response)).error.id).toBe('session_inactive');
      }
    });

    it('builds one group of nodes per card, with the TOTP key and QR code for the owner only and never stored in the clear', async () => {
      await createPerson(server, 'cards@example.test');
      const b = await signedIn(server, 'cards@example.test');
      const flow = await startSettings(b);
      expect(flow).toMatchObject({ type: 'browser', state: 'show_form' });
      expect(flow.ui.action).toBe(`/api/auth/self-service/settings?flow=${flow.id}`);
      const named = (group: string): string[] =>
        flow.ui.nodes.filter((node) => node.group === group).map((node) => node.attributes.name ?? node.attributes.id ?? '');
      expect(named('profile')).toEqual(['traits.email', 'traits.name.first', 'traits.name.last', 'method']);
      expect(inputNamed(flow, 'traits.email')?.attributes.value).toBe('cards@example.test');
      expect(named('password')).toEqual(['password', 'method']);
      expect(named('lookup_secret')).toEqual(['lookup_secret_regenerate']);
      expect(named('totp')).toEqual(['totp_qr', 'totp_secret_key', 'totp_code', 'method']);
      expect(named('webauthn')).toEqual(['webauthn_register_displayname', 'webauthn_register_trigger', 'webauthn_register']);

      const secret = totpSecretOf(flow);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(nodeWithId(flow, 'totp_qr')?.attributes.src).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const options = JSON.parse(String(inputNamed(flow, 'webauthn_register_trigger')?.attributes.value)) as { challenge: string; rp: { id: string; name: string } };
      expect(options.rp).toEqual({ id: '127.0.0.1', name: 'Opsdeck' });
      expect(options.challenge).toMatch(/^[A-Za-z0-9_-]+$/);

      const stored = await server.pool.query<{ ui: string; internal_context: string }>(
        'select ui::text, internal_context::text from self_service_flows where id = $1',
        [flow.id],
      );
      expect(stored.rows[0]?.ui).not.toContain(secret);
      expect(stored.rows[0]?.internal_context).not.toContain(secret);
      // The same flow read again shows the same key: it waits in the flow until a code confirms it.
      const again = await json<Flow>(await b.json(`/api/auth/self-service/settings/flows?id=${flow.id}`));
      expect(totpSecretOf(again)).toBe(secret);
    });

    it('redirects a browser navigation to /profile-settings with the flow id and return_to', async () => {
      await createPerson(server, 'navigates@example.test');
      const b = await signedIn(server, 'navigates@example.test');
      const response = await b.request('/api/auth/self-service/settings/browser?return_to=/health');
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/^\/profile-settings\?flow=[0-9a-f-]{36}&return_to=%2Fhealth$/);
    });

    it('refuses another person’s flow with 403 security_identity_mismatch', async () => {
      await createPerson(server, 'owner@example.test');
      await createPerson(server, 'intruder@example.test');
      const owner = await signedIn(server, 'owner@example.test');
      const intruder = await signedIn(server, 'intruder@example.test');
      const flow = await startSettings(owner);
      const read = await intruder.json(`/api/auth/self-service/settings/flows?id=${flow.id}`);
      expect(read.status).toBe(403);
      expect((await json<ErrorBody>(read)).error.id).toBe('security_identity_mismatch');
      const submit = await submitSettings(intruder, flow, { method: 'profile', 'traits.name.first': 'Taken' });
      expect(submit.status).toBe(403);
      expect((await json<ErrorBody>(submit)).error.id).toBe('security_identity_mismatch');
    });

    it('refuses a submit whose form token does not match the browser with 403 security_csrf_violation', async () => {
      await createPerson(server, 'forged@example.test');
      const b = await signedIn(server, 'forged@example.test');
      const flow = await startSettings(b);
      const response = await b.json(flow.ui.action, { method: 'POST', body: JSON.stringify({ method: 'profile', csrf_token: 'x'.repeat(43) }) });
      expect(response.status).toBe(403);
      expect((await json<ErrorBody>(response)).error.id).toBe('security_csrf_violation');
    });

    it('answers an expired flow with 410 and a fresh flow of the same person to continue with', async () => {
      await createPerson(server, 'expired@example.test');
      const b = await signedIn(server, 'expired@example.test');
      const flow = await startSettings(b);
      await server.pool.query(`update self_service_flows set expires_at = now() - interval '1 minute' where id = $1`, [flow.id]);
      const response = await submitSettings(b, flow, { method: 'profile' });
      expect(response.status).toBe(410);
      const body = await json<ErrorBody>(response);
      expect(body.error.id).toBe('self_service_flow_expired');
      expect((await b.json(`/api/auth/self-service/settings/flows?id=${String(body.use_flow_id)}`)).status).toBe(200);
    });
  });

  describe('profile', () => {
    it('saves names into the traits and the person, answering the flow in state success with a message', async () => {
      const id = await createPerson(server, 'renamed@example.test');
      const b = await signedIn(server, 'renamed@example.test');
      const flow = await startSettings(b);
      const response = await submitSettings(b, flow, { method: 'profile', 'traits.email': 'renamed@example.test', 'traits.name.first': 'Rena', 'traits.name.last': 'Med' });
      expect(response.status).toBe(200);
      const saved = await json<Flow>(response);
      expect(saved.state).toBe('success');
      expect(saved.ui.messages).toEqual([{ id: 1050001, text: 'Your changes were saved.', type: 'success' }]);
      expect(inputNamed(saved, 'traits.name.first')?.attributes.value).toBe('Rena');
      const person = await server.pool.query('select name from people where id = $1', [id]);
      expect(person.rows[0]).toEqual({ name: 'Rena Med' });
      expect((await whoami(b)).body.identity.traits).toEqual({ email: 'renamed@example.test', name: { first: 'Rena', last: 'Med' } });
    });

    it('accepts the traits nested as JSON', async () => {
      await createPerson(server, 'nested@example.test');
      const b = await signedIn(server, 'nested@example.test');
      const flow = await startSettings(b);
      const response = await b.json(flow.ui.action, {
        method: 'POST',
        body: JSON.stringify({ method: 'profile', csrf_token: String(inputNamed(flow, 'csrf_token')?.attributes.value), traits: { name: { first: 'Nes', last: 'Ted' } } }),
      });
      expect(response.status).toBe(200);
      expect((await whoami(b)).body.person.name).toBe('Nes Ted');
    });

    it('changes the sign-in email: the new address signs in unverified, the old one no longer does', async () => {
      const id = await createPerson(server, 'old.address@example.test');
      const b = await signedIn(server, 'old.address@example.test');
      const flow = await startSettings(b);
      const response = await submitSettings(b, flow, { method: 'profile', 'traits.email': 'New.Address@example.test' });
      expect(response.status).toBe(200);
      expect((await whoami(b)).body.person.email).toBe('New.Address@example.test');
      expect((await new TestBrowser(server.url).signIn('new.address@example.test', PASSWORD)).status).toBe(200);
      expect((await new TestBrowser(server.url).signIn('old.address@example.test', PASSWORD)).status).toBe(400);
      const addresses = await server.pool.query('select value, verified from identity_verifiable_addresses where identity_id = $1', [id]);
      expect(addresses.rows).toEqual([{ value: 'new.address@example.test', verified: false }]);
    });

    it('refuses an address another person has, or one that is no address, under the email node, keeping what was typed', async () => {
      await createPerson(server, 'keeps.mine@example.test');
      const b = await signedIn(server, 'keeps.mine@example.test');
      const flow = await startSettings(b);
      const taken = await submitSettings(b, flow, { method: 'profile', 'traits.email': 'ADMIN@opsdeck.local', 'traits.name.first': 'Typed' });
      expect(taken.status).toBe(400);
      const refused = await json<Flow>(taken);
      expect(refused.state).toBe('show_form');
      expect(inputNamed(refused, 'traits.email')?.messages.map((message) => message.id)).toEqual([4000007]);
      expect(inputNamed(refused, 'traits.email')?.attributes.value).toBe('ADMIN@opsdeck.local');
      expect(inputNamed(refused, 'traits.name.first')?.attributes.value).toBe('Typed');
      const invalid = await submitSettings(b, flow, { method: 'profile', 'traits.email': 'not an address' });
      expect(invalid.status).toBe(400);
      expect(inputNamed(await json<Flow>(invalid), 'traits.email')?.messages.map((message) => message.id)).toEqual([4000001]);
      expect((await whoami(b)).body.person.email).toBe('keeps.mine@example.test');
    });
  });

  describe('password', () => {
    it('refuses a weak password with the policy message under the password node', async () => {
      await createPerson(server, 'weak@example.test');
      const b = await signedIn(server, 'weak@example.test');
      const flow = await startSettings(b);
      const response = await submitSettings(b, flow, { method: 'password', password: 'short' });
      expect(response.status).toBe(400);
      const messages = inputNamed(await json<Flow>(response), 'password')?.messages ?? [];
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.every((message) => message.type === 'error')).toBe(true);
    });

    it('changes the password and ends the person’s other sessions, keeping the current one', async () => {
      const id = await createPerson(server, 'rotates@example.test');
      const other = await signedIn(server, 'rotates@example.test');
      const current = await signedIn(server, 'rotates@example.test');
      const flow = await startSettings(current);
      const response = await submitSettings(current, flow, { method: 'password', password: 'a-much-better-passphrase' });
      expect(response.status).toBe(200);
      expect((await json<Flow>(response)).state).toBe('success');
      expect((await whoami(current)).status).toBe(200);
      expect((await whoami(other)).status).toBe(401);
      const active = await server.pool.query('select 1 from sessions where identity_id = $1 and active', [id]);
      expect(active.rowCount).toBe(1);
      expect((await new TestBrowser(server.url).signIn('rotates@example.test', 'a-much-better-passphrase')).status).toBe(200);
      expect((await new TestBrowser(server.url).signIn('rotates@example.test', PASSWORD)).status).toBe(400);
    });

    it('gives a kubeconfig token minted from a stale session no fresh sign-in, so it cannot change the password either', async () => {
      const id = await createPerson(server, 'minted@example.test');
      const b = await signedIn(server, 'minted@example.test');
      await server.pool.query(`update sessions set authenticated_at = now() - interval '16 minutes' where identity_id = $1`, [id]);
      const kubeconfig = await b.request('/api/kubeconfig', { method: 'POST', headers: { accept: 'application/yaml', 'x-requested-with': 'XMLHttpRequest' } });
      expect(kubeconfig.status).toBe(200);
      const token = /token: (\S+)/.exec(await kubeconfig.text())?.[1] ?? '';
      expect(token).not.toBe('');
      b.cookies.set(SESSION_COOKIE, token);
      const flow = await startSettings(b);
      const refused = await submitSettings(b, flow, { method: 'password', password: 'minted-token-passphrase' });
      expect(refused.status).toBe(403);
      expect((await json<ErrorBody>(refused)).error.id).toBe('session_refresh_required');
    });

    it('asks for a fresh sign-in after 15 minutes with session_refresh_required, and takes the change after a refresh login', async () => {
      const id = await createPerson(server, 'stale@example.test');
      const b = await signedIn(server, 'stale@example.test');
      const flow = await startSettings(b);
      await server.pool.query(`update sessions set authenticated_at = now() - interval '16 minutes' where identity_id = $1`, [id]);

      const refused = await submitSettings(b, flow, { method: 'password', password: 'fresh-enough-passphrase' });
      expect(refused.status).toBe(403);
      const body = await json<ErrorBody>(refused);
      expect(body.error.id).toBe('session_refresh_required');
      expect(body.redirect_browser_to).toBe(`/login?refresh=true&return_to=${encodeURIComponent(`/profile-settings?flow=${flow.id}`)}`);
      // A name is no credential: it changes without a fresh sign-in.
      expect((await submitSettings(b, flow, { method: 'profile', 'traits.name.first': 'Still' })).status).toBe(200);
      const form = await b.request(flow.ui.action, { method: 'POST', body: new URLSearchParams({ method: 'password', password: 'fresh-enough-passphrase', csrf_token: String(inputNamed(flow, 'csrf_token')?.attributes.value) }) });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe(body.redirect_browser_to);

      const before = (await whoami(b)).body.id;
      const refresh = await startLogin(b, '?refresh=true');
      expect(inputNamed(refresh, 'identifier')?.attributes).toMatchObject({ type: 'hidden', value: 'stale@example.test' });
      const confirmed = await submitLogin(b, refresh, { method: 'password', identifier: 'stale@example.test', password: PASSWORD });
      expect(confirmed.status).toBe(200);
      expect((await whoami(b)).body.id).toBe(before);

      const accepted = await submitSettings(b, flow, { method: 'password', password: 'fresh-enough-passphrase' });
      expect(accepted.status).toBe(200);
    });
  });

  describe('backup recovery codes', () => {
    it('shows 12 new codes once, saves them only on confirm, stores them hashed and sealed, and reveals them again', async () => {
      const id = await createPerson(server, 'codes@example.test');
      const b = await signedIn(server, 'codes@example.test');
      const flow = await startSettings(b);

      const generated = await json<Flow>(await submitSettings(b, flow, { lookup_secret_regenerate: 'true' }));
      const codes = shownCodes(generated);
      expect(codes).toHaveLength(12);
      for (const code of codes) expect(code).toMatch(/^[a-z0-9]{8}$/);
      expect(nodeWithId(generated, 'lookup_secret_codes')?.attributes.text?.text).toBe(codes.join(', '));
      expect(inputNamed(generated, 'lookup_secret_confirm')).toBeDefined();
      expect((await server.pool.query(`select 1 from identity_credentials where identity_id = $1 and type = 'lookup_secret'`, [id])).rowCount).toBe(0);

      const confirmed = await submitSettings(b, flow, { lookup_secret_confirm: 'true' });
      expect(confirmed.status).toBe(200);
      const saved = await json<Flow>(confirmed);
      expect(saved.state).toBe('success');
      expect(nodeWithId(saved, 'lookup_secret_codes')).toBeUndefined();
      expect(saved.ui.nodes.filter((node) => node.group === 'lookup_secret').map((node) => node.attributes.name)).toEqual([
        'lookup_secret_reveal',
        'lookup_secret_regenerate',
        'lookup_secret_disable',
      ]);
      const stored = await server.pool.query<{ config: string }>(`select config::text from identity_credentials where identity_id = $1 and type = 'lookup_secret'`, [id]);
      for (const code of codes) expect(stored.rows[0]?.config).not.toContain(code);

      const revealed = await json<Flow>(await submitSettings(b, flow, { lookup_secret_reveal: 'true' }));
      expect(shownCodes(revealed)).toEqual(codes);

      expect((await submitSettings(b, flow, { lookup_secret_disable: 'true' })).status).toBe(200);
      expect((await server.pool.query(`select 1 from identity_credentials where identity_id = $1 and type = 'lookup_secret'`, [id])).rowCount).toBe(0);
    });

    it('refuses confirming codes that were never generated in this flow', async () => {
      await createPerson(server, 'no-codes@example.test');
      const b = await signedIn(server, 'no-codes@example.test');
      const flow = await startSettings(b);
      const response = await submitSettings(b, flow, { lookup_secret_confirm: 'true' });
      expect(response.status).toBe(400);
      expect((await json<Flow>(response)).ui.messages?.map((message) => message.id)).toEqual([4000018]);
    });
  });

  it('answers a submit of no known form with 400 and a message', async () => {
    await createPerson(server, 'unknown-form@example.test');
    const b = await signedIn(server, 'unknown-form@example.test');
    const flow = await startSettings(b);
    const response = await submitSettings(b, flow, { method: 'telepathy' });
    expect(response.status).toBe(400);
    expect((await json<Flow>(response)).ui.messages?.map((message) => message.id)).toEqual([4010002]);
  });
});
