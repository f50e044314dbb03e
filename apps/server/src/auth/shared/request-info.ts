import type { FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';

/** The origin the browser used, so links we hand out (logout URL, kubeconfig server) point back where it came from. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The address a request came from, for per-client limits: the socket's peer, or with OPSDECK_TRUST_PROXY the client
 * the proxy names in X-Forwarded-For (Fastify's trustProxy decides; nothing here reads the header itself).
 */
export function clientAddress(request: FastifyRequest): string {
  return request.ip;
}

/**
 * Kratos answers JSON to API-style calls and redirects browsers; a client opts into JSON through Accept, and a JSON
 * body implies it.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const contentType = request.headers['content-type'] ?? '';
  return accept.includes('application/json') || contentType.startsWith('application/json');
}

/** HttpOnly and SameSite=Lax always; Secure only over https, so plain-http local installs keep working. */
export function cookieOptions(request: FastifyRequest, path: string, maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
