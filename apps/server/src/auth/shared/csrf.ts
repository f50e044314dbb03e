import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions, requestOrigin } from './request-info';
import { hashToken, newSessionToken, SESSION_COOKIE } from './session-token';

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

/** The header the web client sends on every API call; a cross-origin page cannot add it without a CORS preflight. */
export const CSRF_HEADER = 'x-requested-with';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SELF_SERVICE_ROUTES = '/api/auth/self-service/';
// application/json and every application/…+json type (vnd.pgrst.object+json, merge-patch+json): none of them is
// a type a cross-origin form or simple fetch may send.
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function sameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === new URL(expected).origin;
  } catch {
    return false;
  }
}

/**
 * Why a state-changing request looks forged, or null when it may go on. It applies to requests that carry the session
 * cookie (a bearer token cannot be attached by another site) and to the identity flows, whose own form token is their
 * defence against forged bodies but which still must come from a page of the console. The browser's Origin and
 * Sec-Fetch-Site, when sent, must name this console (its origin as seen through OPSDECK_TRUST_PROXY); apart from the
 * identity flows, the body must also be JSON or the request must carry CSRF_HEADER, neither of which a cross-origin
 * page can produce without a preflight that this server never grants.
 */
export function forgedRequestReason(request: FastifyRequest): string | null {
  if (!STATE_CHANGING_METHODS.has(request.method)) return null;
  const selfService = request.routeOptions.url?.startsWith(SELF_SERVICE_ROUTES) === true;
  const sessionCookie = request.cookies[SESSION_COOKIE];
  const cookieAuthenticated = sessionCookie !== undefined && sessionCookie !== '';
  if (!cookieAuthenticated && !selfService) return null;

  const fetchSite = singleHeader(request.headers['sec-fetch-site']);
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return `Sec-Fetch-Site is ${fetchSite}; only same-origin requests may change data`;
  }
  const origin = singleHeader(request.headers.origin);
  if (origin !== undefined && !sameOrigin(origin, requestOrigin(request))) {
    return `Origin ${origin} is not this console's origin`;
  }
  if (selfService) return null;
  if (JSON_MEDIA_TYPE.test(mediaType(singleHeader(request.headers['content-type'])))) return null;
  const marker = singleHeader(request.headers[CSRF_HEADER]);
  if (marker !== undefined && marker.trim() !== '') return null;
  return `A request authenticated by the session cookie must send JSON or the ${CSRF_HEADER} header`;
}
