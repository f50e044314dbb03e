import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { highestRole, isAdmin, ROLES } from '@opsdeck/shared';
import { API_TOKEN_REVOKED_EVENT } from '../../auth/sessions/authenticator';
import { errors } from '../../platform/errors';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { apiTokenErrors } from './api-token-errors';
import { countLiveTokens, createToken, listTokens, MAX_EXPIRY_DAYS, MAX_LIVE_TOKENS, outranks, revokeToken } from '../../auth/sessions/api-tokens';

const AUTHENTICATED = 'authenticated' as const;
const AUDIT = { resource: 'api_tokens' };

const tokenViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});

const createBodySchema = z.object({
  name: z.string().trim().min(1, 'This field is required').max(100),
  role: z.enum(ROLES),
  expiresInDays: z.number().int().min(1).max(MAX_EXPIRY_DAYS),
});

const createdSchema = tokenViewSchema.extend({
  token: z.string().describe('The token itself (odt_…): shown this once, only its hash is stored'),
});

/**
 * Personal API tokens (#19): a signed-in person lists, creates and revokes their own tokens; an administrator may revoke
 * anyone's. A token acts as its owner with the role it was given, never above the owner's role at the time of use
 * (auth/authenticator.ts). Answers the console's {code, message, details, hint}, outside the Kratos-shaped /api/auth
 * scope.
 */
export const apiTokensPlugin: DomainPlugin = {
  name: 'api-tokens',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;

    app.get(
      '/api/auth/api-tokens',
      {
        config: { permission: AUTHENTICATED },
        schema: {
          tags: ['api-tokens'],
          summary: 'Your unrevoked API tokens (expired ones included), newest first; never the tokens themselves',
          response: { 200: z.object({ items: z.array(tokenViewSchema) }) },
        },
      },
      async (request) => {
        const principal = request.principal;
        if (principal === null) throw errors.unauthenticated();
        return { items: await listTokens(pool, principal.personId) };
      },
    );

    app.post(
      '/api/auth/api-tokens',
      {
        config: { permission: AUTHENTICATED, audit: AUDIT },
        schema: {
          tags: ['api-tokens'],
          summary: 'Create an API token with a role no higher than yours; the answer holds the token, shown this once',
          description: 'Only a session may create tokens: a call authenticated with an API token is refused (403 OD_API_TOKEN_SESSION_ONLY).',
          body: createBodySchema,
          response: { 201: createdSchema, ...errorResponses(403, 409) },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (principal === null) throw errors.unauthenticated();
        if (principal.via !== 'session') throw apiTokenErrors.sessionOnly();
        const { name, role, expiresInDays } = request.body;
        if (outranks(role, principal.roles)) throw apiTokenErrors.roleTooHigh(role, highestRole(principal.roles));
        if ((await countLiveTokens(pool, principal.personId)) >= MAX_LIVE_TOKENS) throw apiTokenErrors.tooMany(MAX_LIVE_TOKENS);
        const created = await createToken(pool, { personId: principal.personId, name, role, expiresInDays });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({ ...created.view, token: created.token });
      },
    );

    app.delete(
      '/api/auth/api-tokens/:id',
      {
        config: { permission: AUTHENTICATED, audit: { ...AUDIT, action: 'revoke' } },
        schema: {
          tags: ['api-tokens'],
          summary: 'Revoke an API token: your own, or anyone’s for an administrator; it stops working at once',
          params: z.object({ id: z.uuid() }),
          response: { 204: z.null(), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (principal === null) throw errors.unauthenticated();
        if (!(await revokeToken(pool, request.params.id, principal.personId, isAdmin(principal.roles)))) throw apiTokenErrors.notFound();
        context.bus.publish({ name: API_TOKEN_REVOKED_EVENT, payload: { id: request.params.id } });
        return reply.status(204).send(null);
      },
    );
  },
};
