import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { kratosErrors } from '../shared/kratos-error';
import { findRequestSession } from './authenticator';

/** Where a session owing its second factor is sent (the web adds return_to). */
export const AAL2_LOGIN_PAGE = '/login?aal=aal2';

/**
 * An onRequest hook for the routes that tell a session owing its second factor apart from no session (whoami, the
 * settings flow): 403 session_aal2_required there, where every other route answers 401.
 */
export function secondFactorGate(pool: pg.Pool): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const session = await findRequestSession(pool, request);
    if (session?.needs_second_factor === true) throw kratosErrors.aal2Required(AAL2_LOGIN_PAGE);
  };
}
