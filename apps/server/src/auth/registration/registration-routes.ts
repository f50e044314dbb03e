import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { createAuthenticator } from '../sessions/authenticator';
import { createCourier } from '../shared/courier';
import { csrfAccepted, csrfCookieToken, ensureCsrfCookie } from '../shared/csrf';
import { flowPageUrl, kratosErrorSchema, setSessionCookie } from '../shared/flow-http';
import { completeFlow, createFlow, findFlow, flowResponseSchema, isExpired, renderFlow, saveFlowUi, type Flow } from '../shared/flow-store';
import { createFlowThrottle, sweepEmailFlowState } from '../shared/flow-throttle';
import { kratosErrors } from '../shared/kratos-error';
import { normalizeIdentifier } from '../login/password-login';
import { passwordPolicyProblems } from '../shared/password-policy';
import { hashPassword } from '../shared/passwords';
import { registerRecovery } from '../recovery/recovery-routes';
import { registrationEnabled } from './registration-setting';
import { clientAddress, requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo, returnLocation } from '../shared/return-to';
import { createSession, describeSession, identityResponseSchema, sessionResponseSchema } from '../sessions/sessions';
import { SESSION_TTL_MS } from '../shared/session-token';
import { csrfNode, inputNode, uiMessages, withFieldMessages, type UiNode, type UiText } from '../shared/ui-nodes';
import { createCodeStore } from '../shared/verification-codes';
import { codeFlowMessages, hasControlCharacters, isEmailAddress, printable, type CodeFlowDeps } from '../shared/code-flow';
import { registerVerification, VERIFICATION_PAGE, type Verification } from '../verification/verification-routes';

export const REGISTRATION_PAGE = '/registration';
const NAME_MAX_LENGTH = 100;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const registrationBodySchema = z.object({
  method: z.string().max(64).optional(),
  csrf_token: z.string().max(200).optional(),
  // Longer than the policy allows, so an over-long password gets the policy's message under its field, not a 400.
  password: z.string().max(4096).optional(),
  'traits.email': z.string().max(320).optional(),
  'traits.name.first': z.string().max(1024).optional(),
  'traits.name.last': z.string().max(1024).optional(),
  traits: z
    .object({
      email: z.string().max(320).optional(),
      name: z.object({ first: z.string().max(1024).optional(), last: z.string().max(1024).optional() }).optional(),
    })
    .optional(),
});
type RegistrationBody = z.infer<typeof registrationBodySchema>;

const continueWithVerificationSchema = z.object({
  action: z.literal('show_verification_ui'),
  flow: z.object({ id: z.string(), verifiable_address: z.string(), url: z.string() }),
});

const registrationMessages = {
  duplicate: (): UiText => ({
    id: 4000007,
    text: 'This email address already belongs to an account. Sign in, or recover the account if its password is lost.',
    type: 'error',
  }),
  controlCharacters: (): UiText => ({
    id: 4000001,
    text: 'Remove the control characters (tabs, line breaks and the like) from this field.',
    type: 'error',
  }),
  nameTooLong: (): UiText => ({
    // The settings flow uses this id for the same rule on the same fields.
    id: 4000017,
    text: `Use at most ${NAME_MAX_LENGTH} characters.`,
    type: 'error',
    context: { max_length: NAME_MAX_LENGTH },
  }),
} as const;

interface Traits {
  email: string;
  first: string;
  last: string;
}

function label(text: string): UiText {
  return { id: 1070002, text, type: 'info', context: { title: text } };
}

/** The registration form; the typed values come back after a refusal, the password never does. */
function registrationNodes(values: Partial<Traits> = {}): UiNode[] {
  const value = (text: string | undefined): { value?: string } => (text === undefined ? {} : { value: printable(text) });
  return [
    csrfNode(),
    inputNode('default', { name: 'traits.email', type: 'email', required: true, autocomplete: 'email', ...value(values.email) }, label('E-Mail')),
    inputNode('default', { name: 'traits.name.first', type: 'text', required: true, autocomplete: 'given-name', ...value(values.first) }, label('First Name')),
    inputNode('default', { name: 'traits.name.last', type: 'text', required: true, autocomplete: 'family-name', ...value(values.last) }, label('Last Name')),
    inputNode('password', { name: 'password', type: 'password', required: true, autocomplete: 'new-password' }, { id: 1070001, text: 'Password', type: 'info' }),
    inputNode('password', { name: 'method', type: 'submit', value: 'password' }, { id: 1040001, text: 'Sign up', type: 'info' }),
  ];
}

/** Flat node names (`traits.email`, what a form posts) win over the nested JSON shape (`{traits: {email}}`). */
function traitsOf(body: RegistrationBody): Partial<Traits> {
  return {
    email: body['traits.email'] ?? body.traits?.email,
    first: body['traits.name.first'] ?? body.traits?.name?.first,
    last: body['traits.name.last'] ?? body.traits?.name?.last,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** The registration flow; `deps.throttle` is the registration scope's, `verification` mails the new address a code. */
export function registerRegistration(auth: FastifyInstance, deps: CodeFlowDeps, verification: Verification): void {
  const { context, throttle } = deps;
  const pool = context.db.pool;
  const hosted = context.config.oidc !== null;
  const allowlist = context.config.returnToAllowlist;
  const api = auth.withTypeProvider<ZodTypeProvider>();

  async function ensureEnabled(): Promise<void> {
    if (!(await registrationEnabled(pool, hosted))) throw kratosErrors.registrationDisabled(hosted);
  }

  async function newFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    returnTo: string | undefined,
    afterVerification: string | undefined,
  ): Promise<{ flow: Flow; csrfToken: string }> {
    const csrfToken = ensureCsrfCookie(request, reply);
    const flow = await createFlow(pool, {
      kind: 'registration',
      returnTo,
      requestUrl: `${requestOrigin(request)}${request.url}`,
      csrfToken,
      ui: { nodes: registrationNodes(), messages: [] },
    });
    if (afterVerification !== undefined) {
      await pool.query('update self_service_flows set after_verification_return_to = $2 where id = $1', [flow.id, afterVerification]);
    }
    return { flow, csrfToken };
  }

  async function afterVerificationOf(flowId: string): Promise<string | undefined> {
    const result = await pool.query<{ target: string | null }>('select after_verification_return_to as target from self_service_flows where id = $1', [
      flowId,
    ]);
    return result.rows[0]?.target ?? undefined;
  }

  async function replaceStale(request: FastifyRequest, reply: FastifyReply, stale: Flow, json: boolean): Promise<FastifyReply> {
    const { flow: fresh } = await newFlow(request, reply, stale.returnTo ?? undefined, await afterVerificationOf(stale.id));
    if (!json) return reply.redirect(flowPageUrl(REGISTRATION_PAGE, fresh.id, fresh.returnTo), 303);
    throw kratosErrors.flowExpired(stale.expiresAt, fresh.id);
  }

  /** The email is taken when a live person, a password credential or an identity's traits already hold it. */
  async function emailTaken(email: string): Promise<boolean> {
    const result = await pool.query<{ taken: boolean }>(
      `select exists (select 1 from people where lower(email) = $1 and deleted_at is null)
           or exists (select 1 from identity_credentials where identifiers @> array[$1]::text[])
           or exists (select 1 from identity_verifiable_addresses where value = $1) as taken`,
      [email],
    );
    return result.rows[0]?.taken ?? false;
  }

  /** Person, identity, password credential (and admin, for the first person) in one transaction that also completes the flow; null when it was used. */
  async function createIdentity(flow: Flow, traits: Traits, hashedPassword: string): Promise<string | null> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const person = await client.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', [
        `${traits.first} ${traits.last}`,
        traits.email,
      ]);
      const id = person.rows[0]?.id;
      if (id === undefined) throw new Error('person insert returned no id');
      await client.query('insert into identities (id, traits) values ($1, $2)', [
        id,
        JSON.stringify({ email: traits.email, name: { first: traits.first, last: traits.last } }),
      ]);
      await client.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
        id,
        [traits.email],
        JSON.stringify({ hashed_password: hashedPassword }),
      ]);
      // The first person on a server nobody administers yet becomes its admin, or nobody could ever grant a role; the
      // lock makes two simultaneous first registrations take turns, so only one of them finds no admin.
      await client.query('select pg_advisory_xact_lock(hashtext($1))', ['opsdeck:first-admin']);
      await client.query(
        `insert into person_roles (person_id, role)
         select $1, 'admin' where not exists (
           select 1 from person_roles r join people p on p.id = r.person_id and p.deleted_at is null where r.role = 'admin')`,
        [id],
      );
      if (!(await completeFlow(client, flow.id, id))) {
        await client.query('rollback');
        return null;
      }
      await client.query('commit');
      return id;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  api.get(
    '/self-service/registration/browser',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create a browser registration flow (JSON with Accept: application/json, otherwise a redirect to /registration)',
        querystring: z.object({ return_to: z.string().max(2048).optional(), after_verification_return_to: z.string().max(2048).optional() }),
        response: { 200: flowResponseSchema, 400: kratosErrorSchema },
      },
    },
    async (request, reply) => {
      const json = wantsJson(request);
      const origin = requestOrigin(request);
      const returnTo = parseReturnTo(request.query.return_to, origin, allowlist);
      const afterVerification = parseReturnTo(request.query.after_verification_return_to, origin, allowlist);
      await ensureEnabled();
      if ((await deps.authenticate(request)) !== null) {
        if (json) throw kratosErrors.sessionAlreadyAvailable();
        return reply.redirect(returnLocation(returnTo, origin, '/', allowlist), 303);
      }
      const { flow, csrfToken } = await newFlow(request, reply, returnTo, afterVerification);
      if (!json) return reply.redirect(flowPageUrl(REGISTRATION_PAGE, flow.id, flow.returnTo), 303);
      return renderFlow(flow, csrfToken);
    },
  );

  api.get(
    '/self-service/registration/flows',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Get a registration flow',
        querystring: z.object({ id: z.string().max(64) }),
        response: { 200: flowResponseSchema, 400: kratosErrorSchema, 404: kratosErrorSchema, 410: kratosErrorSchema },
      },
    },
    async (request, reply) => {
      const flow = await findFlow(pool, 'registration', request.query.id);
      if (flow === null) throw kratosErrors.flowNotFound();
      await ensureEnabled();
      if (isExpired(flow)) return replaceStale(request, reply, flow, true);
      return renderFlow(flow, csrfCookieToken(request));
    },
  );

  api.post(
    '/self-service/registration',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Submit a registration flow: create an account with a password (JSON or form-encoded)',
        querystring: z.object({ flow: z.string().max(64) }),
        body: registrationBodySchema,
        response: {
          200: z.object({ session: sessionResponseSchema, identity: identityResponseSchema, continue_with: z.array(continueWithVerificationSchema) }),
          400: z.union([flowResponseSchema, kratosErrorSchema]),
          403: kratosErrorSchema,
          404: kratosErrorSchema,
          410: kratosErrorSchema,
          429: kratosErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const json = wantsJson(request);
      const flow = await findFlow(pool, 'registration', request.query.flow);
      if (flow === null) {
        if (json) throw kratosErrors.flowNotFound();
        return reply.redirect(REGISTRATION_PAGE, 303);
      }
      if (isExpired(flow) || flow.state === 'passed_challenge') return replaceStale(request, reply, flow, json);
      const cookieToken = csrfCookieToken(request);
      if (!csrfAccepted(flow.csrfTokenHash, cookieToken, request.body.csrf_token)) throw kratosErrors.csrfViolation();
      await ensureEnabled();
      if ((await deps.authenticate(request)) !== null) throw kratosErrors.sessionAlreadyAvailable();

      const typed = traitsOf(request.body);
      const email = normalizeIdentifier(typed.email ?? '');
      const first = (typed.first ?? '').trim();
      const last = (typed.last ?? '').trim();
      const password = request.body.password ?? '';
      const address = clientAddress(request);

      const verdict = await throttle.assess(email, address);
      if (!verdict.allowed) {
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        throw kratosErrors.flowRateLimited();
      }

      const refuse = async (fieldMessages: Record<string, UiText[]>, messages: UiText[] = []): Promise<FastifyReply> => {
        await throttle.recordFailure(email, address);
        let nodes = registrationNodes({ email: typed.email, first: typed.first, last: typed.last });
        for (const [name, list] of Object.entries(fieldMessages)) nodes = withFieldMessages(nodes, name, list);
        const updated = await saveFlowUi(pool, flow.id, { nodes, messages });
        if (!json) return reply.redirect(flowPageUrl(REGISTRATION_PAGE, updated.id, updated.returnTo), 303);
        return reply.status(400).send(renderFlow(updated, cookieToken));
      };

      const method = request.body.method;
      if (method !== undefined && method !== 'password') return refuse({}, [uiMessages.unknownMethod()]);
      const problems: Record<string, UiText[]> = {};
      if (email === '') problems['traits.email'] = [uiMessages.missingProperty('traits.email')];
      else if (!isEmailAddress(email)) problems['traits.email'] = [codeFlowMessages.invalidEmail()];
      for (const [name, value] of [['traits.name.first', first], ['traits.name.last', last]] as const) {
        if (value === '') problems[name] = [uiMessages.missingProperty(name)];
        else if ([...value].length > NAME_MAX_LENGTH) problems[name] = [registrationMessages.nameTooLong()];
        else if (hasControlCharacters(value)) problems[name] = [registrationMessages.controlCharacters()];
      }
      if (password === '') problems.password = [uiMessages.missingProperty('password')];
      else {
        const weak = passwordPolicyProblems(password, email === '' ? [] : [email]);
        if (weak.length > 0) problems.password = weak;
      }
      if (Object.keys(problems).length > 0) return refuse(problems);
      if (await emailTaken(email)) return refuse({ 'traits.email': [registrationMessages.duplicate()] });

      const traits: Traits = { email, first, last };
      let identityId: string | null;
      try {
        identityId = await createIdentity(flow, traits, await hashPassword(password));
      } catch (error) {
        // Two registrations of one address at once: the unique index on people's email decides, the loser hears why.
        if (isUniqueViolation(error)) return refuse({ 'traits.email': [registrationMessages.duplicate()] });
        throw error;
      }
      if (identityId === null) return replaceStale(request, reply, flow, json);
      await throttle.recordSuccess(email, address);

      const session = await createSession(pool, identityId, 'password', SESSION_TTL_MS);
      setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
      const verificationReturnTo = (await afterVerificationOf(flow.id)) ?? flow.returnTo ?? undefined;
      const verificationFlow = await verification.startFor(request, reply, identityId, email, verificationReturnTo);
      if (!json) return reply.redirect(returnLocation(flow.returnTo, requestOrigin(request), '/', allowlist), 303);
      const described = await describeSession(pool, session.id);
      if (described === null) throw new Error('a session just created could not be read back');
      return {
        session: described,
        identity: described.identity,
        continue_with: [
          {
            action: 'show_verification_ui' as const,
            flow: { id: verificationFlow.id, verifiable_address: email, url: flowPageUrl(VERIFICATION_PAGE, verificationFlow.id, verificationFlow.returnTo) },
          },
        ],
      };
    },
  );
}

/**
 * The email-based self-service flows: registration, verification and recovery (with the recovery links of
 * invitations). Registered inside the /api/auth scope of auth-plugin.ts, whose error handler answers Kratos's shapes.
 */
export async function registerEmailFlows(auth: FastifyInstance, context: AppContext): Promise<void> {
  const pool = context.db.pool;
  const { secretKey } = context.config;
  // A flow must see a sign-out at once, so sessions are read from the database rather than the authenticator's cache.
  const authenticate = createAuthenticator(pool, { cacheTtlMs: 0 });
  const courier = createCourier(context.config, auth.log);
  const codes = createCodeStore(pool, secretKey);
  const verification = registerVerification(auth, {
    context,
    courier,
    codes,
    authenticate,
    throttle: createFlowThrottle(pool, secretKey, 'verification'),
  });
  registerRecovery(auth, { context, courier, codes, authenticate, throttle: createFlowThrottle(pool, secretKey, 'recovery') });
  registerRegistration(auth, { context, courier, codes, authenticate, throttle: createFlowThrottle(pool, secretKey, 'registration') }, verification);

  if (context.config.role !== 'api') {
    const timer = setInterval(() => {
      sweepEmailFlowState(pool).catch((error: unknown) => auth.log.warn({ err: error }, 'email flow sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    auth.addHook('onClose', async () => clearInterval(timer));
  }
}
