import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CONNECTION_TYPES,
  connectionPageSchema,
  connectionTestResultSchema,
  publicConnectionSchema,
  type ConnectionType,
} from '@opsdeck/shared';
import type { DomainPlugin } from '../../platform/http';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  loadConnectionForTest,
  resolveForTest,
  updateConnection,
} from './connection-store';
import { testConnection } from './connection-test';
import { refuseOwnDatabaseUrl, validateConnectionForType } from './connection-rules';

const READ = { resource: 'connections', action: 'read' } as const;
const WRITE = { resource: 'connections', action: 'write' } as const;

const fields = {
  name: z.string().trim().min(1, 'This field is required').max(255),
  namespace: z.string().trim().min(1, 'This field is required').max(255).optional(),
  type: z.enum(CONNECTION_TYPES),
  url: z.string().max(4096).nullable().optional(),
  username: z.string().max(1024).nullable().optional(),
  password: z.string().max(65536).nullable().optional(),
  certificate: z.string().max(65536).nullable().optional(),
  insecure_tls: z.boolean().optional(),
  properties: z.record(z.string(), z.string().max(4096)).optional(),
  secret_properties: z.record(z.string(), z.string().max(65536).nullable()).optional(),
};

const createBody = z.object(fields);
const updateBody = z.object(fields).partial();
const testBody = z.object({ ...fields, name: fields.name.optional(), id: z.uuid().optional() });
const idParams = z.object({ id: z.uuid() });

/**
 * Connections of spec 002 §3 under the canary service (the spec places connections and their test there):
 * CRUD with secrets encrypted at rest and never returned, and Test Connection for saved and unsaved forms.
 */
export const connectionsPlugin: DomainPlugin = {
  name: 'connections',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;
    const key = context.config.secretKey;

    app.get(
      '/api/canary/connections',
      {
        config: { permission: READ },
        schema: {
          tags: ['connections'],
          querystring: z.object({
            limit: z.coerce.number().int().min(1).max(1000).default(100),
            offset: z.coerce.number().int().min(0).default(0),
            type: z.string().optional(),
            query: z.string().max(200).optional(),
          }),
          response: { 200: connectionPageSchema },
        },
      },
      async (request) => listConnections(pool, key, request.query),
    );

    app.get(
      '/api/canary/connections/:id',
      { config: { permission: READ }, schema: { tags: ['connections'], params: idParams, response: { 200: publicConnectionSchema, ...errorResponses(404) } } },
      async (request) => {
        const connection = await getConnection(pool, key, request.params.id);
        if (connection === null) throw errors.notFound('Connection');
        return connection;
      },
    );

    app.post(
      '/api/canary/connections',
      { config: { permission: WRITE }, schema: { tags: ['connections'], body: createBody, response: { 201: publicConnectionSchema, ...errorResponses(409) } } },
      async (request, reply) => {
        validateConnectionForType(request.body);
        refuseOwnDatabaseUrl(pool, request.body);
        try {
          const created = await createConnection(pool, key, request.body, request.principal?.personId ?? null);
          return await reply.status(201).send(created);
        } catch (error) {
          throw uniqueViolation(error) ? errors.nameTaken('connection', request.body.name, 'in this namespace') : error;
        }
      },
    );

    app.patch(
      '/api/canary/connections/:id',
      { config: { permission: WRITE }, schema: { tags: ['connections'], params: idParams, body: updateBody, response: { 200: publicConnectionSchema, ...errorResponses(404, 409) } } },
      async (request) => {
        const current = await getConnection(pool, key, request.params.id);
        if (current === null) throw errors.notFound('Connection');
        const type = request.body.type ?? (current.type as ConnectionType);
        validateConnectionForType({ url: current.url, ...request.body, type, properties: request.body.properties ?? current.properties });
        refuseOwnDatabaseUrl(pool, { url: current.url, ...request.body, type });
        try {
          const updated = await updateConnection(pool, key, request.params.id, request.body);
          if (updated === null) throw errors.notFound('Connection');
          return updated;
        } catch (error) {
          throw uniqueViolation(error) ? errors.nameTaken('connection', request.body.name ?? current.name, 'in this namespace') : error;
        }
      },
    );

    app.delete(
      '/api/canary/connections/:id',
      { config: { permission: WRITE }, schema: { tags: ['connections'], params: idParams, response: { 204: z.null(), ...errorResponses(404) } } },
      async (request, reply) => {
        if (!(await deleteConnection(pool, request.params.id))) throw errors.notFound('Connection');
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/canary/connection/test/:id',
      { config: { permission: WRITE }, schema: { tags: ['connections'], params: idParams, response: { 200: connectionTestResultSchema, ...errorResponses(404, 501) } } },
      async (request) => {
        const connection = await loadConnectionForTest(pool, key, request.params.id);
        if (connection === null) throw errors.notFound('Connection');
        return answer(await testConnection(pool, connection));
      },
    );

    app.post(
      '/api/canary/connection/test',
      { config: { permission: WRITE }, schema: { tags: ['connections'], body: testBody, response: { 200: connectionTestResultSchema, ...errorResponses(501) } } },
      async (request) => {
        const body = request.body;
        const connection = await resolveForTest(pool, key, { ...body, name: body.name ?? 'unsaved' });
        return answer(await testConnection(pool, connection));
      },
    );
  },
};

function answer(result: Awaited<ReturnType<typeof testConnection>>): { message: 'ok'; details: Record<string, unknown> } {
  if (result.outcome === 'unsupported') throw errors.connectionTestUnsupported();
  if (result.outcome === 'failed') throw errors.connectionTestFailed(result.message);
  return { message: 'ok', details: result.details };
}

function uniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
