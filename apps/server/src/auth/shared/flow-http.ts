import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { KratosError, kratosErrors } from './kratos-error';
import { cookieOptions } from './request-info';
import { SESSION_COOKIE } from './session-token';

/** What the HTTP side of every self-service flow shares: the error shape, the page links, the session cookie. */
export const kratosErrorSchema = z.object({
  error: z.object({
    id: z.string().optional(),
    code: z.number().int(),
    status: z.string(),
    reason: z.string().optional(),
    message: z.string(),
  }),
  use_flow_id: z.string().optional(),
  expired_at: z.string().optional(),
  since: z.number().optional(),
  redirect_browser_to: z.string().optional(),
});

/** Every failure inside /api/auth answers in Kratos's error shape, including the 401 of the shared permission check. */
export function toKratosError(error: unknown): KratosError | null {
  if (error instanceof KratosError) return error;
  if (error instanceof AppError) {
    if (error.statusCode === 401) return kratosErrors.sessionInactive();
    if (error.statusCode >= 500) return null;
    return new KratosError(error.statusCode, undefined, error.message, error.details ?? undefined);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((issue) => `${issue.instancePath || '/'} ${issue.message ?? ''}`.trim()).join('; ');
    return new KratosError(400, undefined, 'the request was malformed or contained invalid parameters', details);
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new KratosError(status, undefined, error instanceof Error ? error.message : 'Bad request');
  }
  return null;
}

/** The console's sign-in page: login flows render there, and sign-outs and refresh demands lead there. */
export const LOGIN_PAGE = '/login';

/** The console page that renders a flow (`/login`, `/registration`, …), with the flow id and return_to in its query. */
export function flowPageUrl(page: string, flowId: string, returnTo: string | null): string {
  const query = new URLSearchParams({ flow: flowId });
  if (returnTo !== null) query.set('return_to', returnTo);
  return `${page}?${query.toString()}`;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlMs: number): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, '/', Math.floor(ttlMs / 1000)));
}
