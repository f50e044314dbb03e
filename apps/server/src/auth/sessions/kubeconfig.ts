import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { stringify } from 'yaml';
import { errorBodySchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { kubeconfigErrors } from './kubeconfig-errors';
import { requestOrigin } from '../shared/request-info';
import { createSession, findActiveSession } from './sessions';

export const KUBECONFIG_NAME = 'opsdeck';
export const KUBECONFIG_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const KUBECONFIG_PATH = '/api/kubeconfig';

/** A kubeconfig whose user authenticates to the Opsdeck API with a bearer session token. */
export function renderKubeconfig(options: { server: string; userName: string; token: string }): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: KUBECONFIG_NAME, cluster: { server: options.server } }],
    users: [{ name: options.userName, user: { token: options.token } }],
    contexts: [{ name: KUBECONFIG_NAME, context: { cluster: KUBECONFIG_NAME, user: options.userName } }],
    'current-context': KUBECONFIG_NAME,
    preferences: {},
  });
}

/**
 * Minting a 30-day credential is a write, so it is a POST: the CSRF rule of every cookie-borne write (csrf.ts: JSON or
 * X-Requested-With, and a same-site Origin and Sec-Fetch-Site) then applies, which a link, an image or a top-level
 * navigation from another site cannot satisfy. A GET, which any of those can send with the SameSite=Lax cookie, mints
 * nothing and says where to go instead.
 */
export function registerKubeconfigRoutes(app: FastifyInstance, context: AppContext): void {
  const pool = context.db.pool;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    KUBECONFIG_PATH,
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Mint a kubeconfig holding a new 30-day token for the current user',
        description:
          'Answers application/yaml as an attachment kubeconfig.yaml. A write under the CSRF rule: with the session cookie it must ' +
          'come from the console itself (X-Requested-With or a JSON body, same-origin Origin and Sec-Fetch-Site), else 403 OD_CSRF.',
        response: { 200: z.string().describe('application/yaml'), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (principal === null) throw errors.unauthenticated();
      // A separate session, so the token can be revoked on its own and signing out of the browser keeps it working;
      // it inherits the browser session's assurance (sessions.ts DerivedFrom).
      const current = await findActiveSession(pool, { id: principal.sessionId });
      if (current === null) throw errors.unauthenticated();
      const session = await createSession(pool, principal.personId, 'kubeconfig', KUBECONFIG_TTL_MS, {
        aal: current.aal,
        authenticatedAt: current.authenticated_at,
      });
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

  api.get(
    KUBECONFIG_PATH,
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Not a way to get a kubeconfig: answers 405 OD_KUBECONFIG_POST_ONLY; use POST /api/kubeconfig',
        response: { 401: errorBodySchema, 405: errorBodySchema },
      },
    },
    async (_request, reply) => {
      reply.header('allow', 'POST');
      throw kubeconfigErrors.postOnly();
    },
  );
}
