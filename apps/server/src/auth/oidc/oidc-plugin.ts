import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuthorizationResponseError } from 'openid-client';
import { z } from 'zod';
import type { OidcConfig } from '../../platform/config';
import type { AppContext } from '../../platform/context';
import { KratosError, kratosErrors } from '../shared/kratos-error';
import { kratosErrorSchema, setSessionCookie, toKratosError } from '../shared/flow-http';
import { cookieOptions, requestOrigin } from '../shared/request-info';
import { parseReturnTo, returnLocation } from '../shared/return-to';
import { createSession } from '../sessions/sessions';
import { SESSION_TTL_MS } from '../shared/session-token';
import { profileFromClaims } from './claims';
import { hostedErrors, SIGN_IN_ERROR_PARAM, type SignInError } from './hosted-errors';
import { LOGIN_STATE_COOKIE, LOGIN_STATE_PATH, LOGIN_STATE_TTL_MS, openLoginState, sealLoginState } from './login-state';
import { createOidcClient, type AuthorizationRequest, type OidcClient, type SignInResult } from './oidc-client';
import { organizationsOf, setSessionOrganization, switchOrganization } from './organizations';
import { signInPerson } from './people';

/**
 * Sent on every /api/auth answer in hosted mode, so the web's session check can tell where a 401 should lead (the
 * provider, through /auth-state-checker) without a second request.
 */
export const AUTH_MODE_HEADER = 'opsdeck-auth-mode';
const CALLBACK_PATH = '/api/auth/oidc/callback';
const ORGANIZATION_PICKER = '/organizations/select';
/** Every route of the built-in flows that hosted mode closes; logout and whoami stay. */
const CLOSED_FLOW = /^\/api\/auth\/self-service\/(login|registration|recovery|verification|settings)(\/|$)/;

const organizationSchema = z.object({ id: z.string(), name: z.string() });
const organizationsResponseSchema = z.object({ organizations: z.array(organizationSchema), current: organizationSchema.nullable() });

function signInPage(error: SignInError, returnTo: string | null): string {
  const query = new URLSearchParams({ [SIGN_IN_ERROR_PARAM]: error });
  if (returnTo !== null) query.set('return_to', returnTo);
  return `/login?${query.toString()}`;
}

/** The provider must send the browser back to exactly the address registered with it: the public URL when set. */
function callbackUrl(context: AppContext, request: FastifyRequest): string {
  return new URL(CALLBACK_PATH, context.config.publicUrl ?? requestOrigin(request)).href;
}

/** What went wrong, for the log: never the error's cause, which may hold a provider's response body. */
function describeFailure(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: 'unknown', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, ...(typeof code === 'string' ? { code } : {}), message: error.message };
}

interface HostedDeps {
  context: AppContext;
  oidc: OidcConfig;
  provider: OidcClient;
}

function clearLoginState(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(LOGIN_STATE_COOKIE, cookieOptions(request, LOGIN_STATE_PATH));
}

/** `GET /oidc/login`: a redirect to the provider, with what the callback must check sealed in a one-time cookie. */
async function startSignIn(
  { context, provider }: HostedDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { return_to?: string | undefined; signup?: 'true' | 'false' | undefined },
): Promise<FastifyReply> {
  const returnTo = parseReturnTo(query.return_to, requestOrigin(request), context.config.returnToAllowlist) ?? null;
  const redirectUri = callbackUrl(context, request);
  let authorization: AuthorizationRequest;
  try {
    authorization = await provider.authorizationRequest(redirectUri, { signUp: query.signup === 'true' });
  } catch (error) {
    request.log.warn({ err: describeFailure(error) }, 'the identity provider could not be reached to start a sign-in');
    return reply.redirect(signInPage('provider_unavailable', returnTo), 303);
  }
  const sealed = sealLoginState(context.config.secretKey, {
    state: authorization.state,
    nonce: authorization.nonce,
    verifier: authorization.verifier,
    redirectUri,
    returnTo,
    expiresAt: Date.now() + LOGIN_STATE_TTL_MS,
  });
  reply.setCookie(LOGIN_STATE_COOKIE, sealed, cookieOptions(request, LOGIN_STATE_PATH, Math.floor(LOGIN_STATE_TTL_MS / 1000)));
  return reply.redirect(authorization.url, 303);
}

/** `GET /oidc/callback`: the provider's answer checked against the sealed state, then one of our own sessions. */
async function finishSignIn({ context, oidc, provider }: HostedDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const pool = context.db.pool;
  const saved = openLoginState(context.config.secretKey, request.cookies[LOGIN_STATE_COOKIE]);
  // One use only: whatever happens next, this browser starts any further sign-in from scratch.
  clearLoginState(request, reply);
  if (saved === null) return reply.redirect(signInPage('sign_in_expired', null), 303);
  const fail = (error: SignInError) => reply.redirect(signInPage(error, saved.returnTo), 303);

  const current = new URL(saved.redirectUri);
  current.search = new URL(request.url, current).search;
  let signIn: SignInResult;
  try {
    signIn = await provider.completeSignIn(current, saved);
  } catch (error) {
    if (error instanceof AuthorizationResponseError && error.error === 'access_denied') return fail('access_denied');
    request.log.warn({ err: describeFailure(error) }, 'an OpenID Connect sign-in was refused');
    return fail('sign_in_failed');
  }

  const parsed = profileFromClaims(signIn.issuer, signIn.claims, oidc);
  if ('problem' in parsed) return fail(parsed.problem);
  const outcome = await signInPerson(pool, parsed.profile, request.log);
  if (outcome.outcome === 'refused') return fail(outcome.reason);

  const session = await createSession(pool, outcome.personId, 'oidc', SESSION_TTL_MS);
  if (outcome.organizationId !== null) await setSessionOrganization(pool, session.id, outcome.organizationId);
  setSessionCookie(request, reply, session.token, SESSION_TTL_MS);
  const destination = returnLocation(saved.returnTo, requestOrigin(request), '/', context.config.returnToAllowlist);
  if (outcome.organizationId === null && outcome.organizationCount > 1) {
    return reply.redirect(`${ORGANIZATION_PICKER}?${new URLSearchParams({ return_to: destination }).toString()}`, 303);
  }
  return reply.redirect(destination, 303);
}

function registerRoutes(auth: FastifyInstance, deps: HostedDeps): void {
  const pool = deps.context.db.pool;
  const api = auth.withTypeProvider<ZodTypeProvider>();

  auth.setErrorHandler((error, request, reply) => {
    const kratos = toKratosError(error);
    if (kratos !== null) return reply.status(kratos.statusCode).send(kratos.toBody());
    request.log.error({ err: describeFailure(error) }, 'unhandled error in hosted sign-in');
    return reply.status(500).send(new KratosError(500, undefined, 'an internal server error occurred').toBody());
  });

  api.get(
    '/oidc/login',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Start a sign-in at the OpenID Connect provider: a redirect there (hosted mode only)',
        description: 'signup=true asks the provider for its sign-up page where it supports prompt=create.',
        querystring: z.object({ return_to: z.string().max(2048).optional(), signup: z.enum(['true', 'false']).optional() }),
        response: { 303: z.null().describe('to the provider, or to /login when it cannot be reached'), 400: kratosErrorSchema },
      },
    },
    async (request, reply) => startSignIn(deps, request, reply, request.query),
  );

  // The query holds a one-time authorization code, so the per-request info log lines (which print the URL) are off.
  api.get(
    '/oidc/callback',
    {
      logLevel: 'warn',
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Where the OpenID Connect provider sends the browser back: signs in and redirects (hosted mode only)',
        querystring: z.object({
          code: z.string().max(4096).optional(),
          state: z.string().max(1024).optional(),
          error: z.string().max(256).optional(),
        }),
        response: { 303: z.null().describe('to return_to, the organization picker, or /login with oidc_error') },
      },
    },
    async (request, reply) => finishSignIn(deps, request, reply),
  );

  api.get(
    '/organizations',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: "The signed-in person's organizations, as their identity provider lists them, and the session's current one",
        response: { 200: organizationsResponseSchema, 401: kratosErrorSchema },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (principal === null) throw kratosErrors.sessionInactive();
      return organizationsOf(pool, principal.personId, principal.sessionId);
    },
  );

  api.post(
    '/organizations/switch',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: "Work in another of the person's organizations for the rest of this session",
        body: z.object({ id: z.string().min(1).max(200) }),
        response: { 200: organizationsResponseSchema, 401: kratosErrorSchema, 403: kratosErrorSchema },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (principal === null) throw kratosErrors.sessionInactive();
      if (!(await switchOrganization(pool, principal.personId, principal.sessionId, request.body.id))) throw hostedErrors.notAMember();
      return organizationsOf(pool, principal.personId, principal.sessionId);
    },
  );
}

/**
 * Hosted mode: people sign in at an OpenID Connect provider and come back with one of our own sessions. Registered
 * on the identity plugin's instance, before its routes, so the hooks below also cover the built-in flows: in this
 * mode they answer that sign-in goes through the provider, and every /api/auth answer names the mode.
 */
export async function registerHostedMode(app: FastifyInstance, context: AppContext): Promise<void> {
  const oidc = context.config.oidc;
  if (oidc === null) return;
  const provider = createOidcClient(oidc);

  app.addHook('onRequest', async (request) => {
    if (CLOSED_FLOW.test(request.routeOptions.url ?? '')) throw hostedErrors.selfServiceClosed(oidc.providerName);
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/auth/')) reply.header(AUTH_MODE_HEADER, 'hosted');
  });

  await app.register(async (auth) => registerRoutes(auth, { context, oidc, provider }), { prefix: '/api/auth' });
}
