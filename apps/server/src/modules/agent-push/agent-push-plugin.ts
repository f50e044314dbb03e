import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import type { DomainPlugin } from '../../platform/http';
import { errors } from '../../platform/errors';
import { hashToken } from '../../auth/shared/session-token';
import { applyBatch, ingestionRowKey } from './ingest';
import { heartbeatBody, MAX_PUSH_BYTES, pushBody, pushReply, specsReply } from './protocol';

/** Tokens are 256-bit and url-safe; anything far longer is not one and is refused without a lookup. */
const MAX_TOKEN_LENGTH = 200;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined || !header.startsWith('Bearer ')) return null;
  const token = header.slice('Bearer '.length).trim();
  return token === '' || token.length > MAX_TOKEN_LENGTH ? null : token;
}

/**
 * The agent routes declare permission 'agent': the session guard in http.ts leaves them to this check, which accepts
 * only a live agent's token (a session cookie or token finds no agent). The agent id is taken from the token alone.
 */
function agentAuthenticator(context: AppContext): { verify(request: FastifyRequest): Promise<void>; agentOf(request: FastifyRequest): string } {
  const agents = new WeakMap<FastifyRequest, string>();
  return {
    async verify(request) {
      const token = bearerToken(request);
      if (token === null) throw errors.unauthenticated();
      const result = await context.db.pool.query<{ id: string }>(
        'select id from agents where access_token_hash = $1 and deleted_at is null',
        [hashToken(token)],
      );
      const id = result.rows[0]?.id;
      if (id === undefined) throw errors.unauthenticated();
      agents.set(request, id);
    },
    agentOf(request) {
      const id = agents.get(request);
      if (id === undefined) throw errors.unauthenticated();
      return id;
    },
  };
}

function registerRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const auth = agentAuthenticator(context);
  const preValidation = auth.verify;
  const rowKey = ingestionRowKey(context.config.secretKey);

  typed.post(
    '/api/agent/push',
    {
      config: { permission: 'agent' },
      bodyLimit: MAX_PUSH_BYTES,
      preValidation,
      schema: {
        tags: ['agents'],
        summary: 'Deliver a batch of results from a remote agent',
        description:
          'Bearer agent token. Applies the rows (check statuses, job history, config items and changes) in one transaction, ' +
          "all attributed to the token's agent. A batch id already applied answers duplicate: true and changes nothing.",
        body: pushBody,
        response: { 200: pushReply, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => applyBatch(context.db.pool, rowKey, auth.agentOf(request), request.body),
  );

  typed.post(
    '/api/agent/heartbeat',
    {
      config: { permission: 'agent' },
      preValidation,
      schema: {
        tags: ['agents'],
        summary: 'Tell upstream a remote agent is alive',
        description: 'Bearer agent token. Sets last_seen to now, and hostname and version when sent.',
        body: heartbeatBody,
        response: { 200: z.object({ lastSeen: z.string() }), 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const result = await context.db.pool.query<{ last_seen: Date | string }>(
        `update agents set last_seen = now(), hostname = coalesce($2, hostname), version = coalesce($3, version)
          where id = $1 and deleted_at is null returning last_seen`,
        [auth.agentOf(request), request.body.hostname ?? null, request.body.version ?? null],
      );
      const row = result.rows[0];
      if (row === undefined) throw errors.unauthenticated();
      return { lastSeen: new Date(row.last_seen).toISOString() };
    },
  );

  typed.get(
    '/api/agent/specs',
    {
      config: { permission: 'agent' },
      preValidation,
      schema: {
        tags: ['agents'],
        summary: 'The canaries and scrapers assigned to a remote agent',
        description: 'Bearer agent token. The agent runs these and removes its copies of any no longer listed.',
        response: { 200: specsReply, 401: errorBodySchema },
      },
    },
    async (request) => {
      const agentId = auth.agentOf(request);
      const columns = 'id, name, namespace, description, labels, spec, schedule';
      const [canaries, scrapers] = [
        await context.db.pool.query(`select ${columns} from canaries where agent_id = $1 and deleted_at is null order by name`, [agentId]),
        await context.db.pool.query(`select ${columns} from config_scrapers where agent_id = $1 and deleted_at is null order by name`, [agentId]),
      ];
      return specsReply.parse({ canaries: canaries.rows, scrapers: scrapers.rows });
    },
  );
}

export const agentPushPlugin: DomainPlugin = {
  name: 'agent-push',
  register(app, context) {
    registerRoutes(app, context);
  },
};
