import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSession, describeSession, identityResponseSchema, sessionResponseSchema, type SessionResponse } from '../sessions/sessions';
import type { CodeFlowDeps, Verification } from '../shared/code-flow';
import { ensureCsrfCookie } from '../shared/csrf';
import { flowPageUrl, kratosErrorSchema, setSessionCookie } from '../shared/flow-http';
import { createFlow, flowResponseSchema, renderFlow, type Flow, type FlowResponse } from '../shared/flow-store';
import { showFlow, submitFlow, type FlowRoute, type FlowSubmission } from '../shared/flow-submission';
import { normalizeIdentifier } from '../shared/form-text';
import { kratosErrors } from '../shared/kratos-error';
import { hashPassword } from '../shared/passwords';
import { requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo, returnLocation } from '../shared/return-to';
import { SESSION_TTL_MS } from '../shared/session-token';
import { withFieldMessages, uiMessages, type UiText } from '../shared/ui-nodes';
import { registrationMessages, registrationNodes, registrationProblems, type Traits } from './registration-form';
import { registrationEnabled } from './registration-setting';
import { afterVerificationOf, createIdentity, emailTaken, isUniqueViolation, saveAfterVerification } from './registration-store';

export const REGISTRATION_PAGE = '/registration';

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

interface Registered {
  session: SessionResponse;
  identity: SessionResponse['identity'];
  continue_with: z.infer<typeof continueWithVerificationSchema>[];
}

/** What the registration handlers share; `throttle` is the registration scope's. */
interface RegistrationDeps extends CodeFlowDeps {
  /** Mails the new address a verification code. */
  verification: Verification;
}

/** Flat node names (`traits.email`, what a form posts) win over the nested JSON shape (`{traits: {email}}`). */
function traitsOf(body: RegistrationBody): Partial<Traits> {
  return {
    email: body['traits.email'] ?? body.traits?.email,
    first: body['traits.name.first'] ?? body.traits?.name?.first,
    last: body['traits.name.last'] ?? body.traits?.name?.last,
  };
}

async function ensureEnabled(deps: CodeFlowDeps): Promise<void> {
  const hosted = deps.context.config.oidc !== null;
  if (!(await registrationEnabled(deps.context.db.pool, hosted))) throw kratosErrors.registrationDisabled(hosted);
}

async function newRegistrationFlow(
  deps: CodeFlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo: string | undefined,
  afterVerification: string | undefined,
): Promise<{ flow: Flow; csrfToken: string }> {
  const pool = deps.context.db.pool;
  const csrfToken = ensureCsrfCookie(request, reply);
  const flow = await createFlow(pool, {
    kind: 'registration',
    returnTo,
    requestUrl: `${requestOrigin(request)}${request.url}`,
    csrfToken,
    ui: { nodes: registrationNodes(), messages: [] },
  });
  if (afterVerification !== undefined) await saveAfterVerification(pool, flow.id, afterVerification);
  return { flow, csrfToken };
}

/** `GET /self-service/registration/browser`: a new flow, unless registration is closed or the browser is signed in. */
async function createBrowserRegistration(
  deps: RegistrationDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { return_to?: string | undefined; after_verification_return_to?: string | undefined },
): Promise<FastifyReply | FlowResponse> {
  const allowlist = deps.context.config.returnToAllowlist;
  const json = wantsJson(request);
  const origin = requestOrigin(request);
  const returnTo = parseReturnTo(query.return_to, origin, allowlist);
  const afterVerification = parseReturnTo(query.after_verification_return_to, origin, allowlist);
  await ensureEnabled(deps);
  if ((await deps.authenticate(request)) !== null) {
    if (json) throw kratosErrors.sessionAlreadyAvailable();
    return reply.redirect(returnLocation(returnTo, origin, '/', allowlist), 303);
  }
  const { flow, csrfToken } = await newRegistrationFlow(deps, request, reply, returnTo, afterVerification);
  if (!json) return reply.redirect(flowPageUrl(REGISTRATION_PAGE, flow.id, flow.returnTo), 303);
  return renderFlow(flow, csrfToken);
}

/** `POST /self-service/registration`: the account is created, signed in, and its address sent a verification code. */
async function submitRegistration(deps: RegistrationDeps, submission: FlowSubmission, body: RegistrationBody): Promise<FastifyReply | Registered> {
  const { context, throttle } = deps;
  const pool = context.db.pool;
  const { request, reply, flow, json } = submission;
  if ((await deps.authenticate(request)) !== null) throw kratosErrors.sessionAlreadyAvailable();

  const typed = traitsOf(body);
  const traits: Traits = { email: normalizeIdentifier(typed.email ?? ''), first: (typed.first ?? '').trim(), last: (typed.last ?? '').trim() };
  const { email } = traits;
  const password = body.password ?? '';

  const verdict = await throttle.assess(email, submission.address);
  if (!verdict.allowed) throw submission.tooMany(verdict.retryAfterSeconds);

  const refuse = async (fieldMessages: Record<string, UiText[]>, messages: UiText[] = []): Promise<FastifyReply> => {
    await throttle.recordFailure(email, submission.address);
    let nodes = registrationNodes({ email: typed.email, first: typed.first, last: typed.last });
    for (const [name, list] of Object.entries(fieldMessages)) nodes = withFieldMessages(nodes, name, list);
    return submission.reject({ nodes, messages });
  };

  if (body.method !== undefined && body.method !== 'password') return refuse({}, [uiMessages.unknownMethod()]);
  const problems = registrationProblems(traits, password);
  if (Object.keys(problems).length > 0) return refuse(problems);
  if (await emailTaken(pool, email)) return refuse({ 'traits.email': [registrationMessages.duplicate()] });

  let identityId: string | null;
  try {
    identityId = await createIdentity(pool, flow, traits, await hashPassword(password));
  } catch (error) {
    // Two registrations of one address at once: the unique index on people's email decides, the loser hears why.
    if (isUniqueViolation(error)) return refuse({ 'traits.email': [registrationMessages.duplicate()] });
    throw error;
  }
  if (identityId === null) return submission.replaceStale();
  await throttle.recordSuccess(email, submission.address);

  const session = await createSession(pool, identityId, 'password', SESSION_TTL_MS);
  setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
  const verificationReturnTo = (await afterVerificationOf(pool, flow.id)) ?? flow.returnTo ?? undefined;
  const verificationFlow = await deps.verification.startFor(request, reply, identityId, email, verificationReturnTo);
  if (!json) return reply.redirect(returnLocation(flow.returnTo, requestOrigin(request), '/', context.config.returnToAllowlist), 303);
  const described = await describeSession(pool, session.id);
  if (described === null) throw new Error('a session just created could not be read back');
  return {
    session: described,
    identity: described.identity,
    continue_with: [
      {
        action: 'show_verification_ui' as const,
        flow: { id: verificationFlow.id, verifiable_address: email, url: flowPageUrl(deps.verification.page, verificationFlow.id, verificationFlow.returnTo) },
      },
    ],
  };
}

/** The registration flow; `deps.throttle` is the registration scope's, `verification` mails the new address a code. */
export function registerRegistration(auth: FastifyInstance, codeFlowDeps: CodeFlowDeps, verification: Verification): void {
  const pool = codeFlowDeps.context.db.pool;
  const route: FlowRoute = {
    kind: 'registration',
    page: REGISTRATION_PAGE,
    pool,
    admit: () => ensureEnabled(codeFlowDeps),
    replace: async (request, reply, stale) =>
      (await newRegistrationFlow(codeFlowDeps, request, reply, stale.returnTo ?? undefined, await afterVerificationOf(pool, stale.id))).flow,
  };
  const deps: RegistrationDeps = { ...codeFlowDeps, verification };
  const api = auth.withTypeProvider<ZodTypeProvider>();

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
    async (request, reply) => createBrowserRegistration(deps, request, reply, request.query),
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
    async (request, reply) => showFlow(request, reply, route, request.query.id),
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
    async (request, reply) =>
      submitFlow(request, reply, route, { via: 'form', flowId: request.query.flow, csrfToken: request.body.csrf_token }, (submission) =>
        submitRegistration(deps, submission, request.body),
      ),
  );
}
