import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { readFlowContext, writeFlowContext, type FlowContext } from '../factors/second-factor-store';
import { factorTexts } from '../factors/second-factor-texts';
import { relyingParty } from '../factors/webauthn';
import { findRequestSession, SESSION_CHANGED_EVENT } from '../sessions/authenticator';
import {
  createSession,
  describeSession,
  findActiveSession,
  identityResponseSchema,
  refreshSession,
  sessionResponseSchema,
  upgradeSession,
  type ActiveSessionRow,
  type SessionResponse,
} from '../sessions/sessions';
import { ensureCsrfCookie } from '../shared/csrf';
import { flowPageUrl, kratosErrorSchema, LOGIN_PAGE, setSessionCookie } from '../shared/flow-http';
import { completeFlow, createFlow, flowResponseSchema, renderFlow, type Flow, type FlowResponse } from '../shared/flow-store';
import { showFlow, submitFlow, type FlowRoute, type FlowSubmission } from '../shared/flow-submission';
import { kratosErrors } from '../shared/kratos-error';
import { requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo, returnLocation } from '../shared/return-to';
import { SESSION_TTL_MS } from '../shared/session-token';
import { uiMessages, withFieldMessages, type StoredUi, type UiNode, type UiText } from '../shared/ui-nodes';
import { loginNodes } from './login-nodes';
import { createPasswordLogin, type PasswordLogin } from './password-login';
import { createSecondFactorCheck, secondFactorLoginForm, type SecondFactorChecker } from './second-factor';

const loginBodySchema = z.object({
  method: z.string().max(64).optional(),
  identifier: z.string().max(320).optional(),
  password: z.string().max(1024).optional(),
  totp_code: z.string().max(64).optional(),
  lookup_secret: z.string().max(64).optional(),
  webauthn_login: z.string().max(65536).optional(),
  csrf_token: z.string().max(200).optional(),
});
type LoginBody = z.infer<typeof loginBodySchema>;

const browserQuerySchema = z.object({
  return_to: z.string().max(2048).optional(),
  refresh: z.enum(['true', 'false']).optional(),
  aal: z.enum(['aal1', 'aal2']).optional(),
});
type BrowserQuery = z.infer<typeof browserQuerySchema>;

/** Kratos's hint after a sign-in that is not finished yet: where the browser should go next (the aal2 step). */
const continueWithSchema = z.array(z.object({ action: z.literal('redirect_browser_to'), redirect_browser_to: z.string() }));

interface SignedIn {
  session: SessionResponse;
  identity: SessionResponse['identity'];
  continue_with?: z.infer<typeof continueWithSchema>;
}

interface LoginDeps {
  context: AppContext;
  pool: pg.Pool;
  passwordLogin: PasswordLogin;
  secondFactorCheck: SecondFactorChecker;
}

/**
 * A login flow: the password form, the password of the signed-in person again (refresh), or their second factors
 * (aal2; null when they have none). `session` is the request's session whatever its assurance level.
 */
async function newLoginFlow(
  deps: LoginDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { returnTo: string | undefined; refresh: boolean; requestedAal: 'aal1' | 'aal2'; session: ActiveSessionRow | null },
): Promise<{ flow: Flow; csrfToken: string } | null> {
  let ui: StoredUi;
  let identityId: string | null = null;
  let flowContext: FlowContext = {};
  if (options.requestedAal === 'aal2') {
    if (options.session === null) return null;
    const form = await secondFactorLoginForm(deps.pool, relyingParty(deps.context.config, request), options.session.identity_id);
    if (form === null) return null;
    ui = { nodes: form.nodes, messages: [factorTexts.secondStep()] };
    identityId = options.session.identity_id;
    flowContext = form.context;
  } else {
    const refreshOf = options.refresh && options.session !== null ? (options.session.email ?? undefined) : undefined;
    ui = {
      nodes: loginNodes(refreshOf === undefined ? {} : { refreshOf }),
      messages: refreshOf === undefined ? [] : [uiMessages.refreshIdentity()],
    };
    identityId = refreshOf === undefined ? null : (options.session?.identity_id ?? null);
  }
  const csrfToken = ensureCsrfCookie(request, reply);
  const flow = await createFlow(deps.pool, {
    kind: 'login',
    returnTo: options.returnTo,
    requestUrl: `${requestOrigin(request)}${request.url}`,
    csrfToken,
    refresh: options.refresh,
    requestedAal: options.requestedAal,
    identityId,
    ui,
  });
  if (Object.keys(flowContext).length > 0) await writeFlowContext(deps.pool, flow.id, flowContext);
  return { flow, csrfToken };
}

/** A fresh flow of the stale one's kind while the same person is still signed in, else a plain sign-in form. */
async function replacementFlow(deps: LoginDeps, request: FastifyRequest, reply: FastifyReply, stale: Flow): Promise<Flow> {
  const returnTo = stale.returnTo ?? undefined;
  const session = stale.identityId === null ? null : await findRequestSession(deps.pool, request);
  if (session !== null && session.identity_id === stale.identityId) {
    const same = await newLoginFlow(deps, request, reply, { returnTo, refresh: stale.refresh, requestedAal: stale.requestedAal, session });
    if (same !== null) return same.flow;
  }
  const plain = await newLoginFlow(deps, request, reply, { returnTo, refresh: false, requestedAal: 'aal1', session: null });
  if (plain === null) throw new Error('a password login flow could not be created');
  return plain.flow;
}

/** `GET /self-service/login/browser`: a new login flow, or nothing to do for a browser signed in at the level asked for. */
async function createBrowserLogin(deps: LoginDeps, request: FastifyRequest, reply: FastifyReply, query: BrowserQuery): Promise<FastifyReply | FlowResponse> {
  const allowlist = deps.context.config.returnToAllowlist;
  const returnTo = parseReturnTo(query.return_to, requestOrigin(request), allowlist);
  const refresh = query.refresh === 'true';
  const requestedAal = query.aal ?? 'aal1';
  // Read whatever its assurance level: a session owing its second factor is exactly who the aal2 step is for.
  const session = await findRequestSession(deps.pool, request);
  if (requestedAal === 'aal2' && session === null) throw kratosErrors.sessionInactive();
  // Signed in already, at the level asked for: nothing to do. A session owing its second factor is not signed in
  // for a plain login flow, so a person can abandon the second step and sign in again.
  const satisfied = requestedAal === 'aal2' ? session?.aal === 'aal2' : session !== null && !session.needs_second_factor;
  if (satisfied && !refresh) {
    if (wantsJson(request)) throw kratosErrors.sessionAlreadyAvailable();
    return reply.redirect(returnLocation(returnTo, requestOrigin(request), '/', allowlist), 303);
  }
  const created = await newLoginFlow(deps, request, reply, { returnTo, refresh, requestedAal, session });
  // An aal2 request for a person without any second factor can never be satisfied; say so rather than loop.
  if (created === null) throw kratosErrors.aal2Unavailable();
  const { flow, csrfToken } = created;
  if (wantsJson(request)) return renderFlow(flow, csrfToken);
  return reply.redirect(flowPageUrl(LOGIN_PAGE, flow.id, flow.returnTo), 303);
}

/** The form again with messages: a refresh or second-factor form keeps its nodes; a plain login echoes what was typed. */
function rejectLogin(submission: FlowSubmission, identifier: string | undefined, messages: UiText[], fieldMessages: Record<string, UiText[]> = {}): Promise<FastifyReply> {
  const { flow } = submission;
  const keepsNodes = flow.requestedAal === 'aal2' || (flow.refresh && flow.identityId !== null);
  const base = keepsNodes ? flow.ui.nodes : loginNodes(identifier === undefined ? {} : { identifier });
  // Old messages are dropped.
  let nodes: UiNode[] = base.map((node) => ({ ...node, messages: [] }));
  for (const [name, list] of Object.entries(fieldMessages)) nodes = withFieldMessages(nodes, name, list);
  return submission.reject({ nodes, messages });
}

/**
 * The answer to a successful login step: the session (Kratos's 200), or for a browser a redirect to return_to. A
 * session that still owes its second factor is aal1; the answer then points at the aal2 step (`continue_with` for
 * JSON, a redirect for a browser), and whoami keeps saying session_aal2_required until it is done.
 */
async function signedIn(deps: LoginDeps, submission: FlowSubmission, sessionId: string): Promise<FastifyReply | SignedIn> {
  const { request, reply, flow } = submission;
  const row = await findActiveSession(deps.pool, { id: sessionId });
  const described = await describeSession(deps.pool, sessionId);
  if (row === null || described === null) throw new Error('a session just signed in could not be read back');
  const nextStep = row.needs_second_factor
    ? `${LOGIN_PAGE}?${new URLSearchParams({ aal: 'aal2', ...(flow.returnTo === null ? {} : { return_to: flow.returnTo }) }).toString()}`
    : null;
  if (!wantsJson(request)) {
    return reply.redirect(nextStep ?? returnLocation(flow.returnTo, requestOrigin(request), '/', deps.context.config.returnToAllowlist), 303);
  }
  return {
    session: described,
    identity: described.identity,
    ...(nextStep === null ? {} : { continue_with: [{ action: 'redirect_browser_to' as const, redirect_browser_to: nextStep }] }),
  };
}

/** The aal2 step: a second factor of the person whose session opened the flow raises that same session to aal2. */
async function submitSecondFactor(deps: LoginDeps, submission: FlowSubmission, body: LoginBody): Promise<FastifyReply | SignedIn> {
  const { request, flow } = submission;
  const session = await findRequestSession(deps.pool, request);
  if (session === null) throw kratosErrors.sessionInactive();
  if (session.identity_id !== flow.identityId) throw kratosErrors.identityMismatch();
  const result = await deps.secondFactorCheck.check({
    identityId: session.identity_id,
    method: body.method,
    totpCode: body.totp_code,
    lookupSecret: body.lookup_secret,
    webauthnLogin: body.webauthn_login,
    context: await readFlowContext(deps.pool, flow.id),
    rp: relyingParty(deps.context.config, request),
    address: submission.address,
    offered: flow.ui.nodes,
  });
  if (result.outcome === 'rate_limited') throw submission.tooMany(result.retryAfterSeconds, kratosErrors.tooManyAttempts());
  if (result.outcome === 'rejected') return rejectLogin(submission, body.identifier, result.messages, result.fieldMessages);
  if (!(await completeFlow(deps.pool, flow.id, session.identity_id))) return submission.replaceStale();
  // The same session goes up to aal2: the browser keeps its cookie and no second session is made.
  await upgradeSession(deps.pool, session.id, result.method);
  deps.context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
  return signedIn(deps, submission, session.id);
}

/** The password step: a new session, or for a refresh flow the current session confirmed. */
async function submitPassword(deps: LoginDeps, submission: FlowSubmission, body: LoginBody): Promise<FastifyReply | SignedIn> {
  const { request, reply, flow } = submission;
  const { identifier, password, method } = body;
  if (method !== 'password') return rejectLogin(submission, identifier, [uiMessages.unknownMethod()]);
  const missing: Record<string, UiText[]> = {};
  if (identifier === undefined || identifier.trim() === '') missing.identifier = [uiMessages.missingProperty('identifier')];
  if (password === undefined || password === '') missing.password = [uiMessages.missingProperty('password')];
  if (identifier === undefined || password === undefined || Object.keys(missing).length > 0) return rejectLogin(submission, identifier, [], missing);

  const check = await deps.passwordLogin.check(identifier, password, submission.address);
  if (check.outcome === 'rate_limited') throw submission.tooMany(check.retryAfterSeconds, kratosErrors.tooManyAttempts());
  // A refresh flow re-authenticates the person it was opened for, never somebody else.
  const sameIdentity = !flow.refresh || flow.identityId === null || (check.outcome === 'ok' && check.identityId === flow.identityId);
  if (check.outcome !== 'ok' || !sameIdentity) return rejectLogin(submission, identifier, [uiMessages.invalidCredentials()]);

  if (!(await completeFlow(deps.pool, flow.id, check.identityId))) return submission.replaceStale();
  // A refresh confirms the person behind the current session: that session counts as authenticated now.
  const current = flow.refresh ? await findRequestSession(deps.pool, request) : null;
  if (current !== null && current.identity_id === check.identityId) {
    await refreshSession(deps.pool, current.id, 'password');
    deps.context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
    return signedIn(deps, submission, current.id);
  }
  const session = await createSession(deps.pool, check.identityId, 'password', SESSION_TTL_MS);
  setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
  return signedIn(deps, submission, session.id);
}

/** Kratos's login flow: the password step (also re-authentication) and the second-factor step. */
export function registerLoginRoutes(auth: FastifyInstance, context: AppContext): void {
  const pool = context.db.pool;
  const deps: LoginDeps = {
    context,
    pool,
    passwordLogin: createPasswordLogin(pool, context.config.secretKey),
    secondFactorCheck: createSecondFactorCheck(pool, context.config.secretKey),
  };
  const route: FlowRoute = { kind: 'login', page: LOGIN_PAGE, pool, replace: (request, reply, stale) => replacementFlow(deps, request, reply, stale) };
  const api = auth.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/self-service/login/browser',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create a browser login flow (JSON with Accept: application/json, otherwise a redirect to /login)',
        querystring: browserQuerySchema,
        response: { 200: flowResponseSchema, 400: kratosErrorSchema, 401: kratosErrorSchema },
      },
    },
    async (request, reply) => createBrowserLogin(deps, request, reply, request.query),
  );

  api.get(
    '/self-service/login/flows',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Get a login flow',
        querystring: z.object({ id: z.string().max(64) }),
        response: { 200: flowResponseSchema, 404: kratosErrorSchema, 410: kratosErrorSchema },
      },
    },
    async (request, reply) => showFlow(request, reply, route, request.query.id),
  );

  api.post(
    '/self-service/login',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Submit a login flow (JSON or form-encoded)',
        querystring: z.object({ flow: z.string().max(64) }),
        body: loginBodySchema,
        response: {
          200: z.object({ session: sessionResponseSchema, identity: identityResponseSchema, continue_with: continueWithSchema.optional() }),
          400: z.union([flowResponseSchema, kratosErrorSchema]),
          401: kratosErrorSchema,
          403: kratosErrorSchema,
          404: kratosErrorSchema,
          410: kratosErrorSchema,
          429: kratosErrorSchema,
        },
      },
    },
    async (request, reply) =>
      submitFlow(request, reply, route, { via: 'form', flowId: request.query.flow, csrfToken: request.body.csrf_token }, (submission) =>
        submission.flow.requestedAal === 'aal2' ? submitSecondFactor(deps, submission, request.body) : submitPassword(deps, submission, request.body),
      ),
  );
}
