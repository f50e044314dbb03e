import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { kratosErrorSchema, LOGIN_PAGE } from '../shared/flow-http';
import { kratosErrors } from '../shared/kratos-error';
import { cookieOptions, requestOrigin, wantsJson } from '../shared/request-info';
import { parseReturnTo, returnLocation } from '../shared/return-to';
import { SESSION_COOKIE } from '../shared/session-token';
import { findRequestSession, SESSION_ENDED_EVENT } from './authenticator';
import { secondFactorGate } from './second-factor-gate';
import { describeSession, endSessionByLogoutToken, issueLogoutToken, sessionResponseSchema, type SessionResponse } from './sessions';

interface LogoutLink {
  logout_token: string;
  logout_url: string;
}

/** `GET /sessions/whoami`: the session read fresh from the database, never from the authenticator's cache. */
async function whoami(context: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<SessionResponse> {
  const principal = request.principal;
  const session = principal === null ? null : await describeSession(context.db.pool, principal.sessionId);
  if (session === null) throw kratosErrors.sessionInactive();
  reply.header('cache-control', 'no-store');
  return session;
}

/** A one-time logout URL for the session, returning to `rawReturnTo` when that is allowed. */
async function logoutLink(context: AppContext, request: FastifyRequest, rawReturnTo: string | undefined, sessionId: string): Promise<LogoutLink> {
  const origin = requestOrigin(request);
  const returnTo = parseReturnTo(rawReturnTo, origin, context.config.returnToAllowlist);
  const token = await issueLogoutToken(context.db.pool, context.config.secretKey, sessionId);
  const query = new URLSearchParams({ token });
  if (returnTo !== undefined) query.set('return_to', returnTo);
  return { logout_token: token, logout_url: `${origin}/api/auth/self-service/logout?${query.toString()}` };
}

/**
 * A session still owing its second factor may sign out as well (the aal2 step offers it), yet the permission check
 * does not count it as a session; it is answered here, before that check runs.
 */
async function logoutOwingSecondFactor(context: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const session = await findRequestSession(context.db.pool, request);
  if (session?.needs_second_factor !== true) return undefined;
  const returnTo = (request.query as Record<string, unknown>).return_to;
  return reply.send(await logoutLink(context, request, typeof returnTo === 'string' ? returnTo : undefined, session.id));
}

/** `GET /self-service/logout/browser`: the logout URL of the caller's session. */
async function createLogoutLink(context: AppContext, request: FastifyRequest, returnTo: string | undefined): Promise<LogoutLink> {
  const principal = request.principal;
  if (principal === null) throw kratosErrors.sessionInactive();
  return logoutLink(context, request, returnTo, principal.sessionId);
}

/** `GET /self-service/logout?token=`: ends the token's session and clears the cookie (204 for JSON, a redirect for browsers). */
async function endSession(context: AppContext, request: FastifyRequest, reply: FastifyReply, query: { token: string; return_to?: string | undefined }): Promise<FastifyReply> {
  const returnTo = parseReturnTo(query.return_to, requestOrigin(request), context.config.returnToAllowlist);
  const ended = await endSessionByLogoutToken(context.db.pool, query.token);
  if (ended) context.bus.publish({ name: SESSION_ENDED_EVENT, payload: {} });
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/'));
  if (!wantsJson(request)) return reply.redirect(returnLocation(returnTo, requestOrigin(request), LOGIN_PAGE, context.config.returnToAllowlist), 303);
  if (!ended) throw kratosErrors.sessionInactive();
  return reply.status(204).send(null);
}

/** Kratos's session routes: whoami and the two steps of signing out. */
export function registerSessionRoutes(auth: FastifyInstance, context: AppContext): void {
  const api = auth.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/sessions/whoami',
    {
      config: { permission: 'authenticated' },
      // Before the permission check, which would answer 401: a session owing its second factor gets 403 and the way on.
      onRequest: secondFactorGate(context.db.pool),
      schema: {
        tags: ['auth'],
        summary: 'The current session, with the person and their roles (403 session_aal2_required while a second factor is owed)',
        response: { 200: sessionResponseSchema, 401: kratosErrorSchema, 403: kratosErrorSchema },
      },
    },
    async (request, reply) => whoami(context, request, reply),
  );

  api.get(
    '/self-service/logout/browser',
    {
      config: { permission: 'authenticated' },
      onRequest: async (request, reply) => logoutOwingSecondFactor(context, request, reply),
      schema: {
        tags: ['auth'],
        summary: 'Create a logout URL for the current session',
        querystring: z.object({ return_to: z.string().max(2048).optional() }),
        response: { 200: z.object({ logout_token: z.string(), logout_url: z.string() }), 400: kratosErrorSchema, 401: kratosErrorSchema },
      },
    },
    async (request) => createLogoutLink(context, request, request.query.return_to),
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
    async (request, reply) => endSession(context, request, reply, request.query),
  );
}
