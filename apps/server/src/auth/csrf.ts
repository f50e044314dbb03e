import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions } from './request-info';
import { hashToken, newSessionToken } from './session-token';

/**
 * Double-submit CSRF protection as Kratos does it: one random token per browser lives in an HttpOnly cookie and is
 * echoed in each flow's hidden `csrf_token` field; a flow stores only the token's hash. A cross-site form can send the
 * cookie but cannot read the token to put it in the body.
 */
export const CSRF_COOKIE = 'opsdeck_csrf';
const CSRF_COOKIE_PATH = '/api/auth';
const CSRF_COOKIE_MAX_AGE_SECONDS = 24 * 60 * 60;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function csrfCookieToken(request: FastifyRequest): string | null {
  const token = request.cookies[CSRF_COOKIE];
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : null;
}

/** Keeps the browser's token when it has one, so flows open in several tabs stay valid together. */
export function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply): string {
  const token = csrfCookieToken(request) ?? newSessionToken();
  reply.setCookie(CSRF_COOKIE, token, cookieOptions(request, CSRF_COOKIE_PATH, CSRF_COOKIE_MAX_AGE_SECONDS));
  return token;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The body token must equal the cookie token, and that token must be the one the flow was issued with. */
export function csrfAccepted(flowTokenHash: string, cookieToken: string | null, bodyToken: string | undefined): boolean {
  if (cookieToken === null || bodyToken === undefined) return false;
  return sameText(cookieToken, bodyToken) && sameText(hashToken(cookieToken), flowTokenHash);
}
