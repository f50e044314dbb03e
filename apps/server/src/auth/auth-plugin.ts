import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../platform/context';
import type { DomainPlugin } from '../platform/http';
import { SESSION_CHANGED_EVENT, SESSION_ENDED_EVENT, findRequestSession } from './sessions/authenticator';
import { csrfAccepted, csrfCookieToken, ensureCsrfCookie } from './shared/csrf';
import { completeFlow, createFlow, findFlow, flowResponseSchema, isExpired, renderFlow, saveFlowUi, type Flow } from './shared/flow-store';
import { KratosError, kratosErrors } from './shared/kratos-error';
import { flowPageUrl, kratosErrorSchema, setSessionCookie, toKratosError } from './shared/flow-http';
import { registerKubeconfigRoutes } from './sessions/kubeconfig';
import { loginNodes } from './login/login-nodes';
import { createPasswordLogin, LOGIN_FAILURE_WINDOW_MS } from './login/password-login';
import { clientAddress, cookieOptions, requestOrigin, wantsJson } from './shared/request-info';
import { parseReturnTo, returnLocation } from './shared/return-to';
import { registerEmailFlows } from './registration/registration-routes';
import {
  createSession,
  describeSession,
  endSessionByLogoutToken,
  findActiveSession,
  identityResponseSchema,
  issueLogoutToken,
  refreshSession,
  sessionResponseSchema,
  sweepAuthState,
  upgradeSession,
  type ActiveSessionRow,
} from './sessions/sessions';
import { createSecondFactorCheck, secondFactorGate, secondFactorLoginForm } from './login/second-factor';
import { readFlowContext, writeFlowContext, type FlowContext } from './factors/second-factor-store';
import { factorTexts } from './factors/second-factor-texts';
import { registerSettingsFlow } from './settings/settings-routes';
import { relyingParty } from './factors/webauthn';
import { SESSION_COOKIE, SESSION_TTL_MS } from './shared/session-token';
import { registrationEnabled } from './registration/registration-setting';
import { uiMessages, withFieldMessages, type StoredUi, type UiNode, type UiText } from './shared/ui-nodes';
import { registerHostedMode } from './oidc/oidc-plugin';

const loginBodySchema = z.object({
  method: z.string().max(64).optional(),
  identifier: z.string().max(320).optional(),
  password: z.string().max(1024).optional(),
  totp_code: z.string().max(64).optional(),
  lookup_secret: z.string().max(64).optional(),
  webauthn_login: z.string().max(65536).optional(),
  csrf_token: z.string().max(200).optional(),
});

/** Kratos's hint after a sign-in that is not finished yet: where the browser should go next (the aal2 step). */
const continueWithSchema = z.array(z.object({ action: z.literal('redirect_browser_to'), redirect_browser_to: z.string() }));

export const authModeSchema = z.object({
  /** self-hosted: the built-in identity service; hosted: an OpenID Connect provider (OPSDECK_OIDC_*). */
  mode: z.enum(['self-hosted', 'hosted']),
  provider_name: z.string().optional(),
  registration_enabled: z.boolean(),
});

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const LOGIN_PAGE = '/login';

async function registerSelfService(auth: FastifyInstance, context: AppContext): Promise<void> {
  const pool = context.db.pool;
  const passwordLogin = createPasswordLogin(pool, context.config.secretKey);
  const secondFactorCheck = createSecondFactorCheck(pool, context.config.secretKey);
  const api = auth.withTypeProvider<ZodTypeProvider>();

  await auth.register(fastifyFormbody);
  auth.setErrorHandler((error, request, reply) => {
    const kratos = toKratosError(error);
    if (kratos !== null) return reply.status(kratos.statusCode).send(kratos.toBody());
    request.log.error({ err: error }, 'unhandled error in the identity service');
    return reply.status(500).send(new KratosError(500, undefined, 'an internal server error occurred').toBody());
  });
  await registerSettingsFlow(auth, context);
  await registerEmailFlows(auth, context);

  /**
   * A login flow: the password form, the password of the signed-in person again (refresh), or their second factors
   * (aal2; null when they have none). `session` is the request's session whatever its assurance level.
   */
  async function newLoginFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { returnTo: string | undefined; refresh: boolean; requestedAal: 'aal1' | 'aal2'; session: ActiveSessionRow | null },
  ): Promise<{ flow: Flow; csrfToken: string } | null> {
    let ui: StoredUi;
    let identityId: string | null = null;
    let flowContext: FlowContext = {};
    if (options.requestedAal === 'aal2') {
      if (options.session === null) return null;
      const form = await secondFactorLoginForm(pool, relyingParty(context.config, request), options.session.identity_id);
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
    const flow = await createFlow(pool, {
      kind: 'login',
      returnTo: options.returnTo,
      requestUrl: `${requestOrigin(request)}${request.url}`,
      csrfToken,
      refresh: options.refresh,
      requestedAal: options.requestedAal,
      identityId,
      ui,
    });
    if (Object.keys(flowContext).length > 0) await writeFlowContext(pool, flow.id, flowContext);
    return { flow, csrfToken };
  }

  /** A fresh flow of the stale one's kind while the same person is still signed in, else a plain sign-in form. */
  async function replacementFlow(request: FastifyRequest, reply: FastifyReply, stale: Flow): Promise<Flow> {
    const returnTo = stale.returnTo ?? undefined;
    const session = stale.identityId === null ? null : await findRequestSession(pool, request);
    if (session !== null && session.identity_id === stale.identityId) {
      const same = await newLoginFlow(request, reply, { returnTo, refresh: stale.refresh, requestedAal: stale.requestedAal, session });
      if (same !== null) return same.flow;
    }
    const plain = await newLoginFlow(request, reply, { returnTo, refresh: false, requestedAal: 'aal1', session: null });
    if (plain === null) throw new Error('a password login flow could not be created');
    return plain.flow;
  }

  /** Kratos answers a stale flow with a fresh one: its id in a 410 for JSON clients, a redirect for browsers. */
  async function replaceStaleFlow(request: FastifyRequest, reply: FastifyReply, stale: Flow): Promise<FastifyReply> {
    const flow = await replacementFlow(request, reply, stale);
    if (!wantsJson(request)) return reply.redirect(flowPageUrl(LOGIN_PAGE, flow.id, flow.returnTo), 303);
    throw kratosErrors.flowExpired(stale.expiresAt, flow.id);
  }

  api.get(
    '/self-service/login/browser',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create a browser login flow (JSON with Accept: application/json, otherwise a redirect to /login)',
        querystring: z.object({
          return_to: z.string().max(2048).optional(),
          refresh: z.enum(['true', 'false']).optional(),
          aal: z.enum(['aal1', 'aal2']).optional(),
        }),
        response: { 200: flowResponseSchema, 400: kratosErrorSchema, 401: kratosErrorSchema },
      },
    },
    async (request, reply) => {
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request), context.config.returnToAllowlist);
      const refresh = request.query.refresh === 'true';
      const requestedAal = request.query.aal ?? 'aal1';
      // Read whatever its assurance level: a session owing its second factor is exactly who the aal2 step is for.
      const session = await findRequestSession(pool, request);
      if (requestedAal === 'aal2' && session === null) throw kratosErrors.sessionInactive();
      // Signed in already, at the level asked for: nothing to do. A session owing its second factor is not signed in
      // for a plain login flow, so a person can abandon the second step and sign in again.
      const satisfied = requestedAal === 'aal2' ? session?.aal === 'aal2' : session !== null && !session.needs_second_factor;
      if (satisfied && !refresh) {
        if (wantsJson(request)) throw kratosErrors.sessionAlreadyAvailable();
        return reply.redirect(returnLocation(returnTo, requestOrigin(request), '/', context.config.returnToAllowlist), 303);
      }
      const created = await newLoginFlow(request, reply, { returnTo, refresh, requestedAal, session });
      // An aal2 request for a person without any second factor can never be satisfied; say so rather than loop.
      if (created === null) throw kratosErrors.aal2Unavailable();
      const { flow, csrfToken } = created;
      if (wantsJson(request)) return renderFlow(flow, csrfToken);
      return reply.redirect(flowPageUrl(LOGIN_PAGE, flow.id, flow.returnTo), 303);
    },
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
    async (request, reply) => {
      const flow = await findFlow(pool, 'login', request.query.id);
      if (flow === null) throw kratosErrors.flowNotFound();
      if (isExpired(flow)) {
        const replacement = await replacementFlow(request, reply, flow);
        throw kratosErrors.flowExpired(flow.expiresAt, replacement.id);
      }
      return renderFlow(flow, csrfCookieToken(request));
    },
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
    async (request, reply) => {
      const json = wantsJson(request);
      const flow = await findFlow(pool, 'login', request.query.flow);
      if (flow === null) {
        if (json) throw kratosErrors.flowNotFound();
        return reply.redirect(LOGIN_PAGE, 303);
      }
      if (isExpired(flow) || flow.state === 'passed_challenge') return replaceStaleFlow(request, reply, flow);
      const cookieToken = csrfCookieToken(request);
      if (!csrfAccepted(flow.csrfTokenHash, cookieToken, request.body.csrf_token)) throw kratosErrors.csrfViolation();

      const { identifier, password, method } = request.body;
      const rejectWith = async (messages: UiText[], fieldMessages: Record<string, UiText[]> = {}): Promise<FastifyReply> => {
        // A refresh or second-factor form keeps its nodes; a plain login echoes what was typed. Old messages are dropped.
        const keepsNodes = flow.requestedAal === 'aal2' || (flow.refresh && flow.identityId !== null);
        const base = keepsNodes ? flow.ui.nodes : loginNodes(identifier === undefined ? {} : { identifier });
        let nodes: UiNode[] = base.map((node) => ({ ...node, messages: [] }));
        for (const [name, list] of Object.entries(fieldMessages)) nodes = withFieldMessages(nodes, name, list);
        const updated = await saveFlowUi(pool, flow.id, { nodes, messages });
        if (!json) return reply.redirect(flowPageUrl(LOGIN_PAGE, updated.id, updated.returnTo), 303);
        return reply.status(400).send(renderFlow(updated, cookieToken));
      };

      if (flow.requestedAal === 'aal2') {
        const session = await findRequestSession(pool, request);
        if (session === null) throw kratosErrors.sessionInactive();
        if (session.identity_id !== flow.identityId) throw kratosErrors.identityMismatch();
        const result = await secondFactorCheck.check({
          identityId: session.identity_id,
          method,
          totpCode: request.body.totp_code,
          lookupSecret: request.body.lookup_secret,
          webauthnLogin: request.body.webauthn_login,
          context: await readFlowContext(pool, flow.id),
          rp: relyingParty(context.config, request),
          address: clientAddress(request),
          offered: flow.ui.nodes,
        });
        if (result.outcome === 'rate_limited') {
          reply.header('retry-after', String(result.retryAfterSeconds));
          throw kratosErrors.tooManyAttempts();
        }
        if (result.outcome === 'rejected') return rejectWith(result.messages, result.fieldMessages);
        if (!(await completeFlow(pool, flow.id, session.identity_id))) return replaceStaleFlow(request, reply, flow);
        // The same session goes up to aal2: the browser keeps its cookie and no second session is made.
        await upgradeSession(pool, session.id, result.method);
        context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
        return signedIn(request, reply, flow, session.id);
      }

      if (method !== 'password') return rejectWith([uiMessages.unknownMethod()]);
      const missing: Record<string, UiText[]> = {};
      if (identifier === undefined || identifier.trim() === '') missing.identifier = [uiMessages.missingProperty('identifier')];
      if (password === undefined || password === '') missing.password = [uiMessages.missingProperty('password')];
      if (identifier === undefined || password === undefined || Object.keys(missing).length > 0) return rejectWith([], missing);

      const check = await passwordLogin.check(identifier, password, clientAddress(request));
      if (check.outcome === 'rate_limited') {
        reply.header('retry-after', String(check.retryAfterSeconds));
        throw kratosErrors.tooManyAttempts();
      }
      // A refresh flow re-authenticates the person it was opened for, never somebody else.
      const sameIdentity = !flow.refresh || flow.identityId === null || (check.outcome === 'ok' && check.identityId === flow.identityId);
      if (check.outcome !== 'ok' || !sameIdentity) return rejectWith([uiMessages.invalidCredentials()]);

      if (!(await completeFlow(pool, flow.id, check.identityId))) return replaceStaleFlow(request, reply, flow);
      // A refresh confirms the person behind the current session: that session counts as authenticated now.
      const current = flow.refresh ? await findRequestSession(pool, request) : null;
      if (current !== null && current.identity_id === check.identityId) {
        await refreshSession(pool, current.id, 'password');
        context.bus.publish({ name: SESSION_CHANGED_EVENT, payload: {} });
        return signedIn(request, reply, flow, current.id);
      }
      const session = await createSession(pool, check.identityId, 'password', SESSION_TTL_MS);
      setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
      return signedIn(request, reply, flow, session.id);
    },
  );

  /**
   * The answer to a successful login step: the session (Kratos's 200), or for a browser a redirect to return_to. A
   * session that still owes its second factor is aal1; the answer then points at the aal2 step (`continue_with` for
   * JSON, a redirect for a browser), and whoami keeps saying session_aal2_required until it is done.
   */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, flow: Flow, sessionId: string) {
    const row = await findActiveSession(pool, { id: sessionId });
    const described = await describeSession(pool, sessionId);
    if (row === null || described === null) throw new Error('a session just signed in could not be read back');
    const nextStep = row.needs_second_factor
      ? `${LOGIN_PAGE}?${new URLSearchParams({ aal: 'aal2', ...(flow.returnTo === null ? {} : { return_to: flow.returnTo }) }).toString()}`
      : null;
    if (!wantsJson(request)) {
      return reply.redirect(nextStep ?? returnLocation(flow.returnTo, requestOrigin(request), '/', context.config.returnToAllowlist), 303);
    }
    return {
      session: described,
      identity: described.identity,
      ...(nextStep === null ? {} : { continue_with: [{ action: 'redirect_browser_to' as const, redirect_browser_to: nextStep }] }),
    };
  }

  api.get(
    '/mode',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'How people sign in here: the built-in identity service or an OpenID Connect provider, and whether registration is open',
        response: { 200: authModeSchema },
      },
    },
    async () => {
      const oidc = context.config.oidc;
      return {
        mode: oidc === null ? ('self-hosted' as const) : ('hosted' as const),
        ...(oidc === null ? {} : { provider_name: oidc.providerName }),
        registration_enabled: await registrationEnabled(pool, oidc !== null),
      };
    },
  );

  api.get(
    '/sessions/whoami',
    {
      config: { permission: 'authenticated' },
      // Before the permission check, which would answer 401: a session owing its second factor gets 403 and the way on.
      onRequest: secondFactorGate(pool),
      schema: {
        tags: ['auth'],
        summary: 'The current session, with the person and their roles (403 session_aal2_required while a second factor is owed)',
        response: { 200: sessionResponseSchema, 401: kratosErrorSchema, 403: kratosErrorSchema },
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      const session = principal === null ? null : await describeSession(pool, principal.sessionId);
      if (session === null) throw kratosErrors.sessionInactive();
      reply.header('cache-control', 'no-store');
      return session;
    },
  );

  api.get(
    '/self-service/logout/browser',
    {
      config: { permission: 'authenticated' },
      // A session still owing its second factor may sign out as well (the aal2 step offers it), yet the permission
      // check does not count it as a session; it is answered here, before that check runs.
      onRequest: async (request, reply) => {
        const session = await findRequestSession(pool, request);
        if (session?.needs_second_factor !== true) return;
        const returnTo = (request.query as Record<string, unknown>).return_to;
        return reply.send(await logoutLink(request, typeof returnTo === 'string' ? returnTo : undefined, session.id));
      },
      schema: {
        tags: ['auth'],
        summary: 'Create a logout URL for the current session',
        querystring: z.object({ return_to: z.string().max(2048).optional() }),
        response: { 200: z.object({ logout_token: z.string(), logout_url: z.string() }), 400: kratosErrorSchema, 401: kratosErrorSchema },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (principal === null) throw kratosErrors.sessionInactive();
      return logoutLink(request, request.query.return_to, principal.sessionId);
    },
  );

  async function logoutLink(request: FastifyRequest, rawReturnTo: string | undefined, sessionId: string): Promise<{ logout_token: string; logout_url: string }> {
    const origin = requestOrigin(request);
    const returnTo = parseReturnTo(rawReturnTo, origin, context.config.returnToAllowlist);
    const token = await issueLogoutToken(pool, context.config.secretKey, sessionId);
    const query = new URLSearchParams({ token });
    if (returnTo !== undefined) query.set('return_to', returnTo);
    return { logout_token: token, logout_url: `${origin}/api/auth/self-service/logout?${query.toString()}` };
  }

  // Public on purpose: the unguessable logout token is the credential, and an already-expired session must still be
  // able to clear its cookie and land on the sign-in page. The token travels in the URL, so the per-request info log
  // lines (which print the URL) are silenced for this route.
  api.get(
    '/self-service/logout',
    {
      logLevel: 'warn',
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'End the session a logout token belongs to (204 for JSON, otherwise a redirect)',
        querystring: z.object({ token: z.string().max(200), return_to: z.string().max(2048).optional() }),
        response: { 204: z.null(), 400: kratosErrorSchema, 401: kratosErrorSchema },
      },
    },
    async (request, reply) => {
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request), context.config.returnToAllowlist);
      const ended = await endSessionByLogoutToken(pool, request.query.token);
      if (ended) context.bus.publish({ name: SESSION_ENDED_EVENT, payload: {} });
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
      if (!wantsJson(request)) return reply.redirect(returnLocation(returnTo, requestOrigin(request), LOGIN_PAGE, context.config.returnToAllowlist), 303);
      if (!ended) throw kratosErrors.sessionInactive();
      return reply.status(204).send(null);
    },
  );
}

export const authPlugin: DomainPlugin = {
  name: 'auth',
  async register(app, context) {
    const pool = context.db.pool;
    // First, so that in hosted mode its hooks also close the built-in flows registered below.
    await registerHostedMode(app, context);
    await app.register(async (auth) => registerSelfService(auth, context), { prefix: '/api/auth' });

    registerKubeconfigRoutes(app, context);

    if (context.config.role !== 'api') {
      const timer = setInterval(() => {
        sweepAuthState(pool, LOGIN_FAILURE_WINDOW_MS).catch((error: unknown) => app.log.warn({ err: error }, 'auth sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};
