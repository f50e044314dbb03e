import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../platform/context';
import { errors } from '../platform/errors';
import type { DomainPlugin } from '../platform/http';
import type { Principal } from '../platform/principal';
import { SESSION_ENDED_EVENT, createAuthenticator } from './authenticator';
import { csrfAccepted, csrfCookieToken, ensureCsrfCookie } from './csrf';
import { completeFlow, createFlow, findFlow, flowResponseSchema, isExpired, renderFlow, saveFlowUi, type Flow } from './flow-store';
import { KratosError, kratosErrors } from './kratos-error';
import { flowPageUrl, kratosErrorSchema, setSessionCookie, toKratosError } from './flow-http';
import { KUBECONFIG_TTL_MS, renderKubeconfig } from './kubeconfig';
import { loginNodes } from './login-nodes';
import { createPasswordLogin, LOGIN_FAILURE_WINDOW_MS } from './password-login';
import { clientAddress, cookieOptions, requestOrigin, wantsJson } from './request-info';
import { parseReturnTo, returnLocation } from './return-to';
import { createSession, describeSession, endSessionByLogoutToken, identityResponseSchema, issueLogoutToken, sessionResponseSchema, sweepAuthState } from './sessions';
import { SESSION_COOKIE, SESSION_TTL_MS } from './session-token';
import { registrationEnabled } from './registration-setting';
import { uiMessages, withFieldMessages, type StoredUi, type UiNode, type UiText } from './ui-nodes';

const loginBodySchema = z.object({
  method: z.string().max(64).optional(),
  identifier: z.string().max(320).optional(),
  password: z.string().max(1024).optional(),
  csrf_token: z.string().max(200).optional(),
});

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
  // The login flow must see a logout at once, so it reads the session table directly rather than through the cache.
  const authenticate = createAuthenticator(pool, { cacheTtlMs: 0 });
  const passwordLogin = createPasswordLogin(pool, context.config.secretKey);
  const api = auth.withTypeProvider<ZodTypeProvider>();

  await auth.register(fastifyFormbody);
  auth.setErrorHandler((error, request, reply) => {
    const kratos = toKratosError(error);
    if (kratos !== null) return reply.status(kratos.statusCode).send(kratos.toBody());
    request.log.error({ err: error }, 'unhandled error in the identity service');
    return reply.status(500).send(new KratosError(500, undefined, 'an internal server error occurred').toBody());
  });

  async function newLoginFlow(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { returnTo: string | undefined; refresh: boolean; requestedAal: 'aal1' | 'aal2'; principal: Principal | null },
  ): Promise<{ flow: Flow; csrfToken: string }> {
    const csrfToken = ensureCsrfCookie(request, reply);
    const refreshOf = options.refresh && options.principal !== null ? (options.principal.email ?? undefined) : undefined;
    const ui: StoredUi = {
      nodes: loginNodes(refreshOf === undefined ? {} : { refreshOf }),
      messages: refreshOf === undefined ? [] : [uiMessages.refreshIdentity()],
    };
    const flow = await createFlow(pool, {
      kind: 'login',
      returnTo: options.returnTo,
      requestUrl: `${requestOrigin(request)}${request.url}`,
      csrfToken,
      refresh: options.refresh,
      requestedAal: options.requestedAal,
      identityId: refreshOf === undefined ? null : (options.principal?.personId ?? null),
      ui,
    });
    return { flow, csrfToken };
  }

  /** Kratos answers a stale flow with a fresh one: its id in a 410 for JSON clients, a redirect for browsers. */
  async function replaceStaleFlow(request: FastifyRequest, reply: FastifyReply, stale: Flow): Promise<FastifyReply> {
    const { flow } = await newLoginFlow(request, reply, {
      returnTo: stale.returnTo ?? undefined,
      refresh: false,
      requestedAal: 'aal1',
      principal: null,
    });
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
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request));
      const refresh = request.query.refresh === 'true';
      const requestedAal = request.query.aal ?? 'aal1';
      const principal = await authenticate(request);
      // No second factor exists yet, so an aal2 request can never be satisfied; say so rather than loop.
      if (requestedAal === 'aal2') throw principal === null ? kratosErrors.sessionInactive() : kratosErrors.aal2Unavailable();
      if (principal !== null && !refresh) {
        if (wantsJson(request)) throw kratosErrors.sessionAlreadyAvailable();
        return reply.redirect(returnLocation(returnTo, requestOrigin(request), '/'), 303);
      }
      const { flow, csrfToken } = await newLoginFlow(request, reply, { returnTo, refresh, requestedAal, principal });
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
        const { flow: replacement } = await newLoginFlow(request, reply, {
          returnTo: flow.returnTo ?? undefined,
          refresh: false,
          requestedAal: 'aal1',
          principal: null,
        });
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
          200: z.object({ session: sessionResponseSchema, identity: identityResponseSchema }),
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
        // A refresh form keeps its fixed identifier; a plain login echoes what was typed. Old messages are dropped.
        const base = flow.refresh && flow.identityId !== null ? flow.ui.nodes : loginNodes(identifier === undefined ? {} : { identifier });
        let nodes: UiNode[] = base.map((node) => ({ ...node, messages: [] }));
        for (const [name, list] of Object.entries(fieldMessages)) nodes = withFieldMessages(nodes, name, list);
        const updated = await saveFlowUi(pool, flow.id, { nodes, messages });
        if (!json) return reply.redirect(flowPageUrl(LOGIN_PAGE, updated.id, updated.returnTo), 303);
        return reply.status(400).send(renderFlow(updated, cookieToken));
      };

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
      const session = await createSession(pool, check.identityId, 'password', SESSION_TTL_MS);
      setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
      if (!json) return reply.redirect(returnLocation(flow.returnTo, requestOrigin(request), '/'), 303);
      const described = await describeSession(pool, session.id);
      if (described === null) throw new Error('a session just created could not be read back');
      return { session: described, identity: described.identity };
    },
  );

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
      schema: {
        tags: ['auth'],
        summary: 'The current session, with the person and their roles',
        response: { 200: sessionResponseSchema, 401: kratosErrorSchema },
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
      const origin = requestOrigin(request);
      const returnTo = parseReturnTo(request.query.return_to, origin);
      const token = await issueLogoutToken(pool, context.config.secretKey, principal.sessionId);
      const query = new URLSearchParams({ token });
      if (returnTo !== undefined) query.set('return_to', returnTo);
      return { logout_token: token, logout_url: `${origin}/api/auth/self-service/logout?${query.toString()}` };
    },
  );

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
      const returnTo = parseReturnTo(request.query.return_to, requestOrigin(request));
      const ended = await endSessionByLogoutToken(pool, request.query.token);
      if (ended) context.bus.publish({ name: SESSION_ENDED_EVENT, payload: {} });
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
      if (!wantsJson(request)) return reply.redirect(returnLocation(returnTo, requestOrigin(request), LOGIN_PAGE), 303);
      if (!ended) throw kratosErrors.sessionInactive();
      return reply.status(204).send(null);
    },
  );
}

export const authPlugin: DomainPlugin = {
  name: 'auth',
  async register(app, context) {
    const pool = context.db.pool;
    await app.register(async (auth) => registerSelfService(auth, context), { prefix: '/api/auth' });

    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/kubeconfig',
      {
        config: { permission: 'authenticated' },
        schema: {
          tags: ['auth'],
          summary: 'Download a kubeconfig holding a new 30-day token for the current user',
          description: 'Answers application/yaml as an attachment kubeconfig.yaml.',
          response: { 200: z.string().describe('application/yaml') },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (principal === null) throw errors.unauthenticated();
        // A separate session, so the token can be revoked on its own and signing out of the browser keeps it working.
        const session = await createSession(pool, principal.personId, 'kubeconfig', KUBECONFIG_TTL_MS);
        const yaml = renderKubeconfig({
          server: `${requestOrigin(request)}/api`,
          userName: principal.email ?? principal.name,
          token: session.token,
        });
        return reply
          .header('content-type', 'application/yaml; charset=utf-8')
          .header('content-disposition', 'attachment; filename="kubeconfig.yaml"')
          .header('cache-control', 'no-store')
          .send(yaml);
      },
    );

    if (context.config.role !== 'api') {
      const timer = setInterval(() => {
        sweepAuthState(pool, LOGIN_FAILURE_WINDOW_MS).catch((error: unknown) => app.log.warn({ err: error }, 'auth sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};
