import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_PAIR_FAILURE_LIMIT, MAIL_PAIR_LIMIT } from '../src/auth/shared/flow-throttle';
import { createRecoveryLink } from '../src/auth/recovery/recovery-link';
import { SESSION_COOKIE } from '../src/auth/shared/session-token';
import { MAX_CODE_ATTEMPTS } from '../src/auth/shared/verification-codes';
import { csrfOf, type FlowBody, type KratosErrorResponse } from './auth-client';
import { startTestServer, type TestServer } from './harness';
import {
  AddressedBrowser,
  codeIn,
  createPerson,
  emailFlowEnv,
  nodeNamed,
  PASSWORD,
  setRegistration,
  type EmailFlowKind,
} from './identity-email-flows-support';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const NEW_PASSWORD = 'lantern-quartz-meadow-41';
const KINDS: EmailFlowKind[] = ['registration', 'recovery', 'verification'];

/** A body each flow would accept, so that only the guard under test can refuse it. */
function validBody(kind: EmailFlowKind): Record<string, string> {
  if (kind === 'registration') {
    return {
      method: 'password',
      'traits.email': `guarded.${Math.random().toString(36).slice(2)}@example.test`,
      'traits.name.first': 'Guarded',
      'traits.name.last': 'Person',
      password: NEW_PASSWORD,
    };
  }
  return { method: 'code', email: 'viewer@opsdeck.local' };
}

describe('guards of the email identity flows', () => {
  let server: TestServer;
  let sink: SmtpSink;
  const browser = (ip?: string): AddressedBrowser => new AddressedBrowser(server.url, ip);

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: emailFlowEnv(sink) });
    await setRegistration(server, true);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  /** Sends a recovery code for `email` on a new flow of `b` and answers the flow at the code step with the code. */
  async function recoveryCode(b: AddressedBrowser, email: string): Promise<{ flow: FlowBody; code: string }> {
    const flow = await b.startFlow('recovery');
    const since = sink.mails.length;
    const sent = await b.submit(flow, { method: 'code', email });
    expect(sent.status).toBe(200);
    return { flow: (await sent.json()) as FlowBody, code: codeIn(await sink.waitFor(email, { since })) };
  }

  describe('CSRF', () => {
    it.each(KINDS)('refuses a %s submit without the token, with another token, or from a browser without the cookie', async (kind) => {
      const b = browser();
      const flow = await b.startFlow(kind);
      const missing = await b.json(flow.ui.action, { method: 'POST', body: JSON.stringify(validBody(kind)) });
      expect(missing.status).toBe(403);
      expect(((await missing.json()) as KratosErrorResponse).error).toMatchObject({ id: 'security_csrf_violation', code: 403 });

      const other = browser();
      const otherFlow = await other.startFlow(kind);
      const crossed = await b.json(flow.ui.action, { method: 'POST', body: JSON.stringify({ ...validBody(kind), csrf_token: csrfOf(otherFlow) }) });
      expect(crossed.status).toBe(403);

      const attacker = browser();
      const forged = await attacker.submitForm(flow, { ...validBody(kind), csrf_token: csrfOf(flow) });
      expect(forged.status).toBe(403);
      expect(attacker.cookies.has(SESSION_COOKIE)).toBe(false);
    });

    it('renders the CSRF token into a flow that a browser without any cookie creates', async () => {
      for (const kind of KINDS) {
        const b = browser();
        const flow = await b.startFlow(kind);
        expect(csrfOf(flow), kind).toBe(b.cookies.get('opsdeck_csrf'));
      }
    });
  });

  describe('expired flows', () => {
    it.each(KINDS)('answers a %s flow past its time with 410 self_service_flow_expired and a replacement keeping return_to', async (kind) => {
      const b = browser();
      const flow = await b.startFlow(kind, '?return_to=/topology');
      await server.pool.query(`update self_service_flows set expires_at = now() - interval '1 minute' where id = $1`, [flow.id]);

      const read = await b.json(`/api/auth/self-service/${kind}/flows?id=${flow.id}`);
      expect(read.status).toBe(410);
      const body = (await read.json()) as KratosErrorResponse;
      expect(body.error).toMatchObject({ id: 'self_service_flow_expired', code: 410 });
      const replacement = (await (await b.json(`/api/auth/self-service/${kind}/flows?id=${body.use_flow_id ?? ''}`)).json()) as FlowBody;
      expect(replacement.return_to).toBe('/topology');

      const submit = await b.submit(flow, validBody(kind));
      expect(submit.status).toBe(410);
      expect(((await submit.json()) as KratosErrorResponse).use_flow_id).toMatch(/^[0-9a-f-]{36}$/);

      const navigation = await b.submitForm(flow, { ...validBody(kind), csrf_token: csrfOf(flow) });
      expect(navigation.status).toBe(303);
      expect(navigation.headers.get('location')).toMatch(new RegExp(`^/${kind}\\?flow=[0-9a-f-]{36}&return_to=%2Ftopology$`));
    });

    it.each(KINDS)('answers an unknown %s flow id with 404', async (kind) => {
      const response = await browser().json(`/api/auth/self-service/${kind}/flows?id=0b6a2a52-0000-4000-8000-000000000000`);
      expect(response.status).toBe(404);
    });
  });

  describe('return_to', () => {
    it.each(KINDS)('refuses a %s flow returning to another site, and keeps an allow-listed origin absolute', async (kind) => {
      for (const target of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', 'https://allowed.example.evil.test/']) {
        const response = await browser().json(`/api/auth/self-service/${kind}/browser?return_to=${encodeURIComponent(target)}`);
        expect(response.status, target).toBe(400);
        expect(((await response.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_return_to_forbidden');
      }
      const allowed = await browser().startFlow(kind, `?return_to=${encodeURIComponent('https://allowed.example/after')}`);
      expect(allowed.return_to).toBe('https://allowed.example/after');
    });

    it('refuses an after_verification_return_to outside the allowed places', async () => {
      const response = await browser().json(`/api/auth/self-service/registration/browser?after_verification_return_to=${encodeURIComponent('//evil.example')}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_return_to_forbidden');
    });

    it('redirects to an allow-listed origin after a registration by form post', async () => {
      const b = browser();
      const flow = await b.startFlow('registration', `?return_to=${encodeURIComponent('https://allowed.example/welcome')}`);
      const response = await b.submitForm(flow, { ...validBody('registration'), csrf_token: csrfOf(flow) });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('https://allowed.example/welcome');
    });

    it('lets the login flow return to an allow-listed origin too', async () => {
      const flow = await browser().startLogin(`?return_to=${encodeURIComponent('https://allowed.example/after')}`);
      expect(flow.return_to).toBe('https://allowed.example/after');
    });
  });

  describe('rate limits', () => {
    it('refuses the eleventh code attempt for one address from one client, even with the right code, and serves the owner elsewhere', async () => {
      await createPerson(server, 'limited.recovery@example.test');
      const guesser = browser();
      let attempts = 0;
      while (attempts < FLOW_PAIR_FAILURE_LIMIT) {
        const { flow, code } = await recoveryCode(guesser, 'limited.recovery@example.test');
        for (let tries = 0; tries < MAX_CODE_ATTEMPTS && attempts < FLOW_PAIR_FAILURE_LIMIT; tries += 1) {
          const response = await guesser.submit(flow, { method: 'code', code: code === '999999' ? '999998' : '999999' });
          expect(response.status).toBe(400);
          attempts += 1;
        }
      }
      const { flow, code } = await recoveryCode(guesser, 'limited.recovery@example.test');
      const refused = await guesser.submit(flow, { method: 'code', code });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as KratosErrorResponse).error).toMatchObject({ id: 'self_service_flow_rate_limited', code: 429 });

      const owner = browser();
      const fresh = await recoveryCode(owner, 'limited.recovery@example.test');
      const recovered = await owner.submit(fresh.flow, { method: 'code', code: fresh.code });
      expect(recovered.status).toBe(422);
    });

    it('refuses an eleventh refused registration from one address for one email, and serves another address', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      const duplicate = { method: 'password', 'traits.email': 'editor@opsdeck.local', 'traits.name.first': 'E', 'traits.name.last': 'D', password: NEW_PASSWORD };
      for (let attempt = 0; attempt < FLOW_PAIR_FAILURE_LIMIT; attempt += 1) {
        expect((await b.submit(flow, duplicate)).status).toBe(400);
      }
      const eleventh = await b.submit(flow, duplicate);
      expect(eleventh.status).toBe(429);
      expect(((await eleventh.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_rate_limited');

      const other = browser();
      const otherFlow = await other.startFlow('registration');
      expect((await other.submit(otherFlow, duplicate)).status).toBe(400);
    });

    it('caps the codes mailed to one address from one client, the same whether the address has an account or not', async () => {
      await createPerson(server, 'limited.mail@example.test');
      for (const email of ['limited.mail@example.test', 'no.account.limited@example.test']) {
        const b = browser();
        const flow = await b.startFlow('verification');
        for (let sent = 0; sent < MAIL_PAIR_LIMIT; sent += 1) {
          expect((await b.submit(flow, { method: 'code', email })).status, email).toBe(200);
        }
        const capped = await b.submit(flow, { method: 'code', email });
        expect(capped.status, email).toBe(429);
        expect(((await capped.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_rate_limited');
        const other = browser();
        expect((await other.submit(await other.startFlow('verification'), { method: 'code', email })).status, email).toBe(200);
      }
    });
  });

  describe('odd input', () => {
    it('refuses names with a NUL byte or a lone surrogate under their field, never with a server error', async () => {
      for (const first of ['Nul\u0000Byte', 'Lone\ud800Surrogate', 'Tab\tbed']) {
        const b = browser();
        const flow = await b.startFlow('registration');
        const response = await b.submit(flow, { ...validBody('registration'), 'traits.name.first': first, 'traits.name.last': `${first} too` });
        expect(response.status, JSON.stringify(first)).toBe(400);
        const body = (await response.json()) as FlowBody;
        expect(nodeNamed(body, 'traits.name.first')?.messages[0]?.id).toBe(4000001);
        const echoed = String(nodeNamed(body, 'traits.name.first')?.attributes.value);
        expect(echoed.includes('\u0000') || echoed.includes('\t')).toBe(false);
      }
    });

    it.each(['recovery', 'verification'] as const)('refuses a %s address with control characters as not an address', async (kind) => {
      const b = browser();
      const flow = await b.startFlow(kind);
      const response = await b.submit(flow, { method: 'code', email: 'nul\u0000@example.test' });
      expect(response.status).toBe(400);
      expect(nodeNamed((await response.json()) as FlowBody, 'email')?.messages[0]?.id).toBe(4000001);
    });

    it('sends a code to an address without a dot in its domain, as self-hosted sign-ins may have', async () => {
      await createPerson(server, 'root@localhost');
      const b = browser();
      const flow = await b.startFlow('verification');
      const since = sink.mails.length;
      expect((await b.submit(flow, { method: 'code', email: 'root@localhost' })).status).toBe(200);
      expect(codeIn(await sink.waitFor('root@localhost', { since }))).toMatch(/^\d{6}$/);
    });
  });

  describe('recovery links (invitations)', () => {
    it('signs in once, as the invited person, and sends them to set a password; the second use signs in nobody', async () => {
      const id = await createPerson(server, 'invited@example.test');
      const earlier = browser();
      expect((await earlier.signIn('invited@example.test', PASSWORD)).status).toBe(200);
      const link = await createRecoveryLink(server.pool, id, `${server.url}/`, 60 * 60 * 1000);
      expect(link.url).toMatch(new RegExp(`^${server.url}/api/auth/self-service/recovery\\?token=[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
      const stored = await server.pool.query<{ row: string }>('select c::text as row from identity_codes c where identity_id = $1', [id]);
      expect(stored.rows.some((row) => row.row.includes(new URL(link.url).searchParams.get('token') ?? '-'))).toBe(false);

      const path = new URL(link.url).pathname + new URL(link.url).search;
      const b = browser();
      const first = await b.request(path);
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/profile-settings');
      const whoami = await b.json('/api/auth/sessions/whoami');
      expect(whoami.status).toBe(200);
      expect(((await whoami.json()) as { person: { email: string }; authentication_methods: { method: string }[] })).toMatchObject({
        person: { email: 'invited@example.test' },
        authentication_methods: [{ method: 'link_recovery' }],
      });
      expect((await earlier.json('/api/auth/sessions/whoami')).status).toBe(401);

      const again = browser();
      const second = await again.request(path);
      expect(second.status).toBe(303);
      const location = new URL(second.headers.get('location') ?? '', server.url);
      expect(location.pathname).toBe('/recovery');
      expect(again.cookies.has(SESSION_COOKIE)).toBe(false);
      const shown = (await (await again.json(`/api/auth/self-service/recovery/flows?id=${location.searchParams.get('flow') ?? ''}`)).json()) as FlowBody;
      expect(shown.ui.messages).toEqual([expect.objectContaining({ id: 4060004, type: 'error' })]);
      expect(nodeNamed(shown, 'email')).toBeDefined();
      expect(JSON.stringify(shown)).not.toContain(new URL(link.url).searchParams.get('token') ?? '-');
    });

    it('answers a JSON client with the session and where a browser would go', async () => {
      const id = await createPerson(server, 'invited.json@example.test');
      const link = await createRecoveryLink(server.pool, id, server.url, 60_000);
      const b = browser();
      const response = await b.json(new URL(link.url).pathname + new URL(link.url).search);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        session: { person: { email: 'invited.json@example.test' } },
        continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: '/profile-settings' }],
      });
      const unknown = await browser().json('/api/auth/self-service/recovery?token=unknown');
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as FlowBody).ui.messages?.[0]?.id).toBe(4060004);
    });

    it('refuses an expired link, a link replaced by a newer one, and a link of a deactivated person', async () => {
      const id = await createPerson(server, 'invited.twice@example.test');
      const older = await createRecoveryLink(server.pool, id, server.url, 60_000);
      const newer = await createRecoveryLink(server.pool, id, server.url, 60_000);
      const pathOf = (url: string): string => new URL(url).pathname + new URL(url).search;
      expect(new URL((await browser().request(pathOf(older.url))).headers.get('location') ?? '', server.url).pathname).toBe('/recovery');

      const expired = await createRecoveryLink(server.pool, id, server.url, 60_000);
      await server.pool.query(`update identity_codes set expires_at = now() - interval '1 second' where purpose = 'recovery_link' and spent_at is null`);
      expect(new URL((await browser().request(pathOf(expired.url))).headers.get('location') ?? '', server.url).pathname).toBe('/recovery');
      expect(newer.url).not.toBe(expired.url);

      const fresh = await createRecoveryLink(server.pool, id, server.url, 60_000);
      await server.pool.query(`update identities set state = 'inactive' where id = $1`, [id]);
      expect(new URL((await browser().request(pathOf(fresh.url))).headers.get('location') ?? '', server.url).pathname).toBe('/recovery');
    });
  });
});
