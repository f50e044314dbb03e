import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/shared/session-token';
import { csrfOf, type FlowBody, type KratosErrorResponse } from './auth-client';
import { startTestServer, type TestServer } from './harness';
import {
  AddressedBrowser,
  codeIn,
  createPerson,
  emailFlowEnv,
  isVerified,
  mailsTo,
  nodeNamed,
  PASSWORD,
  setRegistration,
} from './identity-email-flows-support';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const NEW_PASSWORD = 'lantern-quartz-meadow-41';

interface SessionBody {
  id: string;
  authenticated_at: string;
  authentication_methods: { method: string; aal: string }[];
  identity: { id: string; traits: Record<string, unknown> };
  person: { name: string; email: string | null };
  roles: string[];
}

interface RegistrationSuccess {
  session: SessionBody;
  identity: { id: string; traits: Record<string, unknown> };
  continue_with: { action: string; flow: { id: string; verifiable_address: string; url: string } }[];
}

describe('email identity flows', () => {
  let server: TestServer;
  let sink: SmtpSink;
  const browser = (): AddressedBrowser => new AddressedBrowser(server.url);

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: emailFlowEnv(sink) });
    await setRegistration(server, true);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  describe('registration', () => {
    it('offers a flow with email, first and last name, password and a Sign up button', async () => {
      const flow = await browser().startFlow('registration', '?return_to=/incidents');
      expect(flow).toMatchObject({ type: 'browser', return_to: '/incidents', state: 'choose_method' });
      expect(flow.ui.action).toBe(`/api/auth/self-service/registration?flow=${flow.id}`);
      expect(flow.ui.nodes.map((node) => node.attributes.name)).toEqual([
        'csrf_token',
        'traits.email',
        'traits.name.first',
        'traits.name.last',
        'password',
        'method',
      ]);
      expect(nodeNamed(flow, 'traits.email')).toMatchObject({ attributes: { type: 'email', required: true }, meta: { label: { text: 'E-Mail' } } });
      expect(nodeNamed(flow, 'traits.name.first')?.meta.label?.text).toBe('First Name');
      expect(nodeNamed(flow, 'traits.name.last')?.meta.label?.text).toBe('Last Name');
      expect(nodeNamed(flow, 'password')).toMatchObject({ group: 'password', attributes: { type: 'password', autocomplete: 'new-password' } });
      expect(nodeNamed(flow, 'method')).toMatchObject({ attributes: { type: 'submit', value: 'password' }, meta: { label: { text: 'Sign up' } } });
      expect(csrfOf(flow)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('creates a viewer with a password, signs them in and mails a verification code for the address', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      const since = sink.mails.length;
      const response = await b.submit(flow, {
        method: 'password',
        'traits.email': 'Ada.Lovelace@Example.test',
        'traits.name.first': ' Ada ',
        'traits.name.last': 'Lovelace',
        password: NEW_PASSWORD,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const body = (await response.json()) as RegistrationSuccess;
      expect(body.identity.traits).toEqual({ email: 'ada.lovelace@example.test', name: { first: 'Ada', last: 'Lovelace' } });
      expect(body.session).toMatchObject({ person: { name: 'Ada Lovelace', email: 'ada.lovelace@example.test' }, roles: ['viewer'] });
      expect(body.session.authentication_methods).toEqual([expect.objectContaining({ method: 'password', aal: 'aal1' })]);
      expect(b.cookies.has(SESSION_COOKIE)).toBe(true);
      expect((await b.json('/api/auth/sessions/whoami')).status).toBe(200);

      const id = body.identity.id;
      const roles = await server.pool.query('select 1 from person_roles where person_id = $1', [id]);
      expect(roles.rowCount).toBe(0);
      const credential = await server.pool.query<{ identifiers: string[]; hashed: string }>(
        `select identifiers, config->>'hashed_password' as hashed from identity_credentials where identity_id = $1 and type = 'password'`,
        [id],
      );
      expect(credential.rows[0]?.identifiers).toEqual(['ada.lovelace@example.test']);
      expect(credential.rows[0]?.hashed).toMatch(/^\$argon2id\$/);
      expect(await isVerified(server, 'ada.lovelace@example.test')).toBe(false);

      const [next] = body.continue_with;
      expect(next).toMatchObject({ action: 'show_verification_ui', flow: { verifiable_address: 'ada.lovelace@example.test' } });
      expect(next?.flow.url).toBe(`/verification?flow=${next?.flow.id ?? ''}`);
      const mail = await sink.waitFor('ada.lovelace@example.test', { since });
      expect(mail.subject).toBe('Confirm your email address for Opsdeck');
      const verify = await b.submit((await (await b.json(`/api/auth/self-service/verification/flows?id=${next?.flow.id ?? ''}`)).json()) as FlowBody, {
        method: 'code',
        code: codeIn(mail),
      });
      expect(verify.status).toBe(200);
      expect(await isVerified(server, 'ada.lovelace@example.test')).toBe(true);

      expect((await browser().signIn('ada.lovelace@example.test', NEW_PASSWORD)).status).toBe(200);
    });

    it('takes the nested JSON shape of the traits too', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      const response = await b.submit(flow, {
        method: 'password',
        traits: { email: 'grace@example.test', name: { first: 'Grace', last: 'Hopper' } },
        password: NEW_PASSWORD,
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as RegistrationSuccess).identity.traits).toEqual({ email: 'grace@example.test', name: { first: 'Grace', last: 'Hopper' } });
    });

    it('answers a form post with a redirect to return_to and the session cookie', async () => {
      const b = browser();
      const flow = await b.startFlow('registration', '?return_to=/topology');
      const response = await b.submitForm(flow, {
        csrf_token: csrfOf(flow),
        method: 'password',
        'traits.email': 'form.person@example.test',
        'traits.name.first': 'Form',
        'traits.name.last': 'Person',
        password: NEW_PASSWORD,
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/topology');
      expect(b.cookies.has(SESSION_COOKIE)).toBe(true);
    });

    it('refuses an address that already has an account, whatever its case, under traits.email, keeping what was typed', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      const response = await b.submit(flow, {
        method: 'password',
        'traits.email': 'Viewer@OpsDeck.local',
        'traits.name.first': 'Vic',
        'traits.name.last': 'Viewer',
        password: NEW_PASSWORD,
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as FlowBody;
      expect(body.id).toBe(flow.id);
      expect(nodeNamed(body, 'traits.email')?.messages).toEqual([expect.objectContaining({ id: 4000007, type: 'error' })]);
      expect(nodeNamed(body, 'traits.email')?.attributes.value).toBe('Viewer@OpsDeck.local');
      expect(nodeNamed(body, 'traits.name.first')?.attributes.value).toBe('Vic');
      expect(nodeNamed(body, 'password')?.attributes.value).toBeUndefined();
      expect(b.cookies.has(SESSION_COOKIE)).toBe(false);
      const people = await server.pool.query(`select 1 from people where lower(email) = 'viewer@opsdeck.local'`);
      expect(people.rowCount).toBe(1);
    });

    it('reports the password policy under the password field: length, likeness to the address, common passwords', async () => {
      const cases: [string, number][] = [
        ['k7#Rq2', 4000032],
        ['marguerite.example-2024', 4000031],
        ['Password123!', 4000034],
      ];
      for (const [password, id] of cases) {
        const b = browser();
        const flow = await b.startFlow('registration');
        const response = await b.submit(flow, {
          method: 'password',
          'traits.email': 'marguerite@example.test',
          'traits.name.first': 'Marguerite',
          'traits.name.last': 'Perey',
          password,
        });
        expect(response.status, password).toBe(400);
        const messages = nodeNamed((await response.json()) as FlowBody, 'password')?.messages ?? [];
        expect(messages.map((message) => message.id), password).toContain(id);
        expect(messages.every((message) => message.type === 'error' && message.text.length > 0)).toBe(true);
      }
      const taken = await server.pool.query(`select 1 from people where email = 'marguerite@example.test'`);
      expect(taken.rowCount).toBe(0);
    });

    it('reports missing fields and a malformed address under their nodes', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      const missing = (await (await b.submit(flow, { method: 'password' })).json()) as FlowBody;
      for (const name of ['traits.email', 'traits.name.first', 'traits.name.last', 'password']) {
        expect(nodeNamed(missing, name)?.messages, name).toEqual([expect.objectContaining({ id: 4000002, type: 'error' })]);
      }
      const malformed = await b.submit(flow, {
        method: 'password',
        'traits.email': 'not-an-address',
        'traits.name.first': 'No',
        'traits.name.last': 'Address',
        password: NEW_PASSWORD,
      });
      expect(malformed.status).toBe(400);
      expect(nodeNamed((await malformed.json()) as FlowBody, 'traits.email')?.messages).toEqual([expect.objectContaining({ id: 4000001 })]);
    });

    it('is refused with self_service_flow_disabled while registration is off, also for a flow opened before', async () => {
      const b = browser();
      const flow = await b.startFlow('registration');
      await setRegistration(server, false);
      try {
        const create = await browser().json('/api/auth/self-service/registration/browser');
        expect(create.status).toBe(400);
        const error = ((await create.json()) as KratosErrorResponse).error;
        expect(error).toMatchObject({ id: 'self_service_flow_disabled', code: 400 });
        expect(error.reason).toMatch(/invite/);
        const submit = await b.submit(flow, {
          method: 'password',
          'traits.email': 'too.late@example.test',
          'traits.name.first': 'Too',
          'traits.name.last': 'Late',
          password: NEW_PASSWORD,
        });
        expect(submit.status).toBe(400);
        expect(((await submit.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_disabled');
        expect((await server.pool.query(`select 1 from people where email = 'too.late@example.test'`)).rowCount).toBe(0);
        const mode = (await (await browser().json('/api/auth/mode')).json()) as { registration_enabled: boolean };
        expect(mode.registration_enabled).toBe(false);
      } finally {
        await setRegistration(server, true);
      }
    });

    it('tells a signed-in browser it already has a session', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const response = await b.json('/api/auth/self-service/registration/browser');
      expect(response.status).toBe(400);
      expect(((await response.json()) as KratosErrorResponse).error.id).toBe('session_already_available');
    });

    it('gives the verification flow it starts the after_verification_return_to of the registration', async () => {
      const b = browser();
      const flow = await b.startFlow('registration', '?return_to=/health&after_verification_return_to=%2Fcatalog');
      const response = await b.submit(flow, {
        method: 'password',
        'traits.email': 'after.verify@example.test',
        'traits.name.first': 'After',
        'traits.name.last': 'Verify',
        password: NEW_PASSWORD,
      });
      const verificationId = ((await response.json()) as RegistrationSuccess).continue_with[0]?.flow.id ?? '';
      const verification = (await (await b.json(`/api/auth/self-service/verification/flows?id=${verificationId}`)).json()) as FlowBody;
      expect(verification).toMatchObject({ state: 'sent_email', return_to: '/catalog' });
    });
  });

  describe('verification', () => {
    it('sends a code to the address and verifies it when the code comes back', async () => {
      await createPerson(server, 'verify.code@example.test');
      const b = browser();
      const flow = await b.startFlow('verification', '?return_to=/incidents');
      expect(flow.ui.nodes.map((node) => node.attributes.name)).toEqual(['csrf_token', 'email', 'method']);
      expect(nodeNamed(flow, 'method')?.attributes.value).toBe('code');

      const since = sink.mails.length;
      const sent = await b.submit(flow, { method: 'code', email: 'Verify.Code@example.test' });
      expect(sent.status).toBe(200);
      const waiting = (await sent.json()) as FlowBody;
      expect(waiting.state).toBe('sent_email');
      expect(waiting.ui.messages).toEqual([expect.objectContaining({ id: 1080003, type: 'info' })]);
      expect(waiting.ui.nodes.map((node) => [node.attributes.name, node.attributes.type])).toEqual([
        ['csrf_token', 'hidden'],
        ['code', 'text'],
        ['method', 'submit'],
        ['email', 'submit'],
      ]);
      expect(nodeNamed(waiting, 'email')?.attributes.value).toBe('verify.code@example.test');

      const mail = await sink.waitFor('verify.code@example.test', { since });
      const code = codeIn(mail);
      expect(mail.text).toContain(`/api/auth/self-service/verification?flow=${flow.id}&code=${code}`);
      const stored = await server.pool.query<{ row: string }>('select c::text as row from identity_codes c where flow_id = $1', [flow.id]);
      expect(stored.rows.some((row) => row.row.includes(code))).toBe(false);

      const verified = await b.submit(waiting, { method: 'code', code });
      expect(verified.status).toBe(200);
      const done = (await verified.json()) as FlowBody;
      expect(done.state).toBe('passed_challenge');
      expect(done.ui.messages).toEqual([expect.objectContaining({ id: 1080002, type: 'success' })]);
      expect(done.ui.nodes.find((node) => node.attributes.node_type === 'a')?.attributes).toMatchObject({ id: 'continue', href: '/incidents' });
      expect(await isVerified(server, 'verify.code@example.test')).toBe(true);
    });

    it('verifies through the link of the mail, from another browser, and shows the result on the flow page', async () => {
      await createPerson(server, 'verify.link@example.test');
      const b = browser();
      const flow = await b.startFlow('verification');
      const since = sink.mails.length;
      expect((await b.submit(flow, { method: 'code', email: 'verify.link@example.test' })).status).toBe(200);
      const mail = await sink.waitFor('verify.link@example.test', { since });
      const link = new URL(/https?:\/\/\S+/.exec(mail.text ?? '')?.[0] ?? '');
      expect(link.origin).toBe(server.url);

      const phone = browser();
      const opened = await phone.request(`${link.pathname}${link.search}`);
      expect(opened.status).toBe(303);
      expect(opened.headers.get('location')).toBe(`/verification?flow=${flow.id}`);
      expect(await isVerified(server, 'verify.link@example.test')).toBe(true);
      const shown = (await (await phone.json(`/api/auth/self-service/verification/flows?id=${flow.id}`)).json()) as FlowBody;
      expect(shown.state).toBe('passed_challenge');
      expect(shown.ui.messages?.[0]?.id).toBe(1080002);
      expect((await phone.request(`${link.pathname}${link.search}`)).headers.get('location')).toBe(`/verification?flow=${flow.id}`);
    });

    it('answers an unknown address exactly as a known one and mails nobody', async () => {
      await createPerson(server, 'verify.known@example.test');
      const answers: FlowBody[] = [];
      for (const email of ['nobody.here@example.test', 'verify.known@example.test']) {
        const b = browser();
        const flow = await b.startFlow('verification');
        const response = await b.submit(flow, { method: 'code', email });
        expect(response.status).toBe(200);
        answers.push((await response.json()) as FlowBody);
      }
      const shape = (flow: FlowBody | undefined): unknown => ({
        state: flow?.state,
        messages: flow?.ui.messages,
        nodes: flow?.ui.nodes.map((node) => [node.attributes.name, node.attributes.type, node.meta.label?.text]),
      });
      expect(shape(answers[0])).toEqual(shape(answers[1]));
      await sink.waitFor('verify.known@example.test');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailsTo(sink, 'nobody.here@example.test')).toEqual([]);
    });

    it('refuses a wrong code under the code field and keeps the flow usable', async () => {
      await createPerson(server, 'verify.wrong@example.test');
      const b = browser();
      const flow = await b.startFlow('verification');
      const since = sink.mails.length;
      const waiting = (await (await b.submit(flow, { method: 'code', email: 'verify.wrong@example.test' })).json()) as FlowBody;
      const code = codeIn(await sink.waitFor('verify.wrong@example.test', { since }));
      const wrong = await b.submit(waiting, { method: 'code', code: code === '000000' ? '111111' : '000000' });
      expect(wrong.status).toBe(400);
      const refused = (await wrong.json()) as FlowBody;
      expect(nodeNamed(refused, 'code')?.messages).toEqual([expect.objectContaining({ id: 4070006, type: 'error' })]);
      expect((await b.submit(refused, { method: 'code', code })).status).toBe(200);
    });

    it('sends a fresh code on resend, after which only the new code works', async () => {
      await createPerson(server, 'verify.resend@example.test');
      const b = browser();
      const flow = await b.startFlow('verification');
      const first = sink.mails.length;
      const waiting = (await (await b.submit(flow, { method: 'code', email: 'verify.resend@example.test' })).json()) as FlowBody;
      const oldCode = codeIn(await sink.waitFor('verify.resend@example.test', { since: first }));
      const second = sink.mails.length;
      const resent = await b.submit(waiting, { email: 'verify.resend@example.test' });
      expect(resent.status).toBe(200);
      const newCode = codeIn(await sink.waitFor('verify.resend@example.test', { since: second }));
      if (oldCode !== newCode) expect((await b.submit(waiting, { method: 'code', code: oldCode })).status).toBe(400);
      expect((await b.submit(waiting, { method: 'code', code: newCode })).status).toBe(200);
    });
  });

  describe('recovery', () => {
    it('signs the person in with the mailed code, ends their other sessions and sends them to set a password', async () => {
      await createPerson(server, 'recover.me@example.test');
      const laptop = browser();
      const phone = browser();
      expect((await laptop.signIn('recover.me@example.test', PASSWORD)).status).toBe(200);
      expect((await phone.signIn('recover.me@example.test', PASSWORD)).status).toBe(200);
      const bystander = browser();
      expect((await bystander.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);

      const b = browser();
      const flow = await b.startFlow('recovery', '?return_to=/incidents');
      expect(flow.ui.nodes.map((node) => node.attributes.name)).toEqual(['csrf_token', 'email', 'method']);
      const since = sink.mails.length;
      const sent = await b.submit(flow, { method: 'code', email: 'recover.me@example.test' });
      expect(sent.status).toBe(200);
      const waiting = (await sent.json()) as FlowBody;
      expect(waiting.state).toBe('sent_email');
      expect(waiting.ui.messages).toEqual([expect.objectContaining({ id: 1060003, type: 'info' })]);
      const mail = await sink.waitFor('recover.me@example.test', { since });
      expect(mail.subject).toBe('Your Opsdeck account recovery code');
      expect(mail.text).toContain(`${server.url}/recovery?flow=${flow.id}`);
      const code = codeIn(mail);

      const recovered = await b.submit(waiting, { method: 'code', code });
      expect(recovered.status).toBe(422);
      const body = (await recovered.json()) as KratosErrorResponse & { redirect_browser_to?: string };
      expect(body.error).toMatchObject({ id: 'browser_location_change_required', code: 422, status: 'Unprocessable Entity' });
      expect(body.redirect_browser_to).toBe('/profile-settings?return_to=%2Fincidents');

      const whoami = await b.json('/api/auth/sessions/whoami');
      expect(whoami.status).toBe(200);
      const session = (await whoami.json()) as SessionBody;
      expect(session.person.email).toBe('recover.me@example.test');
      expect(session.authentication_methods).toEqual([expect.objectContaining({ method: 'code_recovery', aal: 'aal1' })]);
      expect(Date.now() - Date.parse(session.authenticated_at)).toBeLessThan(60_000);
      expect((await laptop.json('/api/auth/sessions/whoami')).status).toBe(401);
      expect((await phone.json('/api/auth/sessions/whoami')).status).toBe(401);
      expect((await bystander.json('/api/auth/sessions/whoami')).status).toBe(200);
      expect(await isVerified(server, 'recover.me@example.test')).toBe(true);

      const again = await b.submit(waiting, { method: 'code', code });
      expect(again.status).toBe(410);
      expect(((await again.json()) as KratosErrorResponse).error.id).toBe('self_service_flow_expired');
    });

    it('redirects a browser form post with the right code to the settings page', async () => {
      await createPerson(server, 'recover.form@example.test');
      const b = browser();
      const flow = await b.startFlow('recovery');
      const since = sink.mails.length;
      const waiting = (await (await b.submit(flow, { method: 'code', email: 'recover.form@example.test' })).json()) as FlowBody;
      const code = codeIn(await sink.waitFor('recover.form@example.test', { since }));
      const response = await b.submitForm(waiting, { csrf_token: csrfOf(waiting), method: 'code', code });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/profile-settings');
      expect(b.cookies.has(SESSION_COOKIE)).toBe(true);
    });

    it('spends the flow after five wrong codes: the right code no longer works and a fresh flow is handed out', async () => {
      await createPerson(server, 'recover.guess@example.test');
      const b = browser();
      const flow = await b.startFlow('recovery');
      const since = sink.mails.length;
      const waiting = (await (await b.submit(flow, { method: 'code', email: 'recover.guess@example.test' })).json()) as FlowBody;
      const code = codeIn(await sink.waitFor('recover.guess@example.test', { since }));
      const wrong = code === '123456' ? '654321' : '123456';
      for (let attempt = 1; attempt < 5; attempt += 1) {
        const response = await b.submit(waiting, { method: 'code', code: wrong });
        expect(response.status).toBe(400);
        const refused = (await response.json()) as FlowBody;
        expect(refused.id).toBe(flow.id);
        expect(nodeNamed(refused, 'code')?.messages[0]?.id).toBe(4060006);
      }
      const fifth = await b.submit(waiting, { method: 'code', code: wrong });
      expect(fifth.status).toBe(400);
      const fresh = (await fifth.json()) as FlowBody;
      expect(fresh.id).not.toBe(flow.id);
      expect(fresh.state).toBe('choose_method');
      expect(fresh.ui.messages).toEqual([expect.objectContaining({ id: 4060007, type: 'error' })]);
      expect(nodeNamed(fresh, 'email')?.attributes.value).toBe('recover.guess@example.test');

      const late = await b.submit(waiting, { method: 'code', code });
      expect(late.status).toBe(410);
      expect(((await late.json()) as KratosErrorResponse).use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.cookies.has(SESSION_COOKIE)).toBe(false);
    });

    it('answers an unknown address exactly as a known one, mails nobody, and no code opens it', async () => {
      await createPerson(server, 'recover.known@example.test');
      const answers: FlowBody[] = [];
      const browsers: AddressedBrowser[] = [];
      for (const email of ['ghost@example.test', 'recover.known@example.test']) {
        const b = browser();
        const flow = await b.startFlow('recovery');
        const response = await b.submit(flow, { method: 'code', email });
        expect(response.status).toBe(200);
        answers.push((await response.json()) as FlowBody);
        browsers.push(b);
      }
      const shape = (flow: FlowBody | undefined): unknown => ({
        state: flow?.state,
        messages: flow?.ui.messages,
        nodes: flow?.ui.nodes.map((node) => [node.attributes.name, node.attributes.type, node.meta.label?.text]),
      });
      expect(shape(answers[0])).toEqual(shape(answers[1]));
      await sink.waitFor('recover.known@example.test');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailsTo(sink, 'ghost@example.test')).toEqual([]);

      const ghostFlow = answers[0];
      const ghostBrowser = browsers[0];
      if (ghostFlow === undefined || ghostBrowser === undefined) throw new Error('missing answer');
      const guess = await ghostBrowser.submit(ghostFlow, { method: 'code', code: '000000' });
      expect(guess.status).toBe(400);
      expect(nodeNamed((await guess.json()) as FlowBody, 'code')?.messages[0]?.id).toBe(4060006);
    });

    it('refuses an expired code', async () => {
      await createPerson(server, 'recover.late@example.test');
      const b = browser();
      const flow = await b.startFlow('recovery');
      const since = sink.mails.length;
      const waiting = (await (await b.submit(flow, { method: 'code', email: 'recover.late@example.test' })).json()) as FlowBody;
      const code = codeIn(await sink.waitFor('recover.late@example.test', { since }));
      await server.pool.query(`update identity_codes set expires_at = now() - interval '1 second' where flow_id = $1`, [flow.id]);
      const response = await b.submit(waiting, { method: 'code', code });
      expect(response.status).toBe(400);
      expect(nodeNamed((await response.json()) as FlowBody, 'code')?.messages[0]?.id).toBe(4060006);
    });

    it('does not mail an account that is deactivated', async () => {
      const id = await createPerson(server, 'recover.inactive@example.test');
      await server.pool.query(`update identities set state = 'inactive' where id = $1`, [id]);
      const b = browser();
      const flow = await b.startFlow('recovery');
      expect((await b.submit(flow, { method: 'code', email: 'recover.inactive@example.test' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailsTo(sink, 'recover.inactive@example.test')).toEqual([]);
    });

    it('tells a signed-in browser it already has a session', async () => {
      const b = browser();
      expect((await b.signIn('viewer@opsdeck.local', PASSWORD)).status).toBe(200);
      const response = await b.json('/api/auth/self-service/recovery/browser');
      expect(response.status).toBe(400);
      expect(((await response.json()) as KratosErrorResponse).error.id).toBe('session_already_available');
    });
  });
});
