import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { agentDetailSchema, createdAgentSchema } from '@opsdeck/shared';
import type { DomainPlugin } from '../../platform/http';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { writeHooksFor } from '../../data-api/write-hooks';
import { agentSettings, describeIssues, kubernetesSettings, pushTelemetrySettings } from './agent-settings';
import { createAgent, deleteAgent, getAgent, rotateAgentToken, updateAgent } from './agent-store';

const READ = { resource: 'agents', action: 'read' } as const;
const WRITE = { resource: 'agents', action: 'write' } as const;
const MAX_PROPERTIES = 100;

const LOCAL_AGENT_NAME = 'local';
const isReservedAgentName = (value: string): boolean => value.trim().toLowerCase() === LOCAL_AGENT_NAME;

const name = z
  .string()
  .trim()
  .min(1, 'This field is required')
  .max(255)
  // The name is written into installation commands and manifests; a control character there would break them.
  .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters')
  // The health page groups the server's own checks under 'local': an agent of that name would pass for the server.
  .refine((value) => !isReservedAgentName(value), `'${LOCAL_AGENT_NAME}' names this server's own checks; choose another name`);


const fields = {
  description: z
    .string()
    .trim()
    .max(4096)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value)),
  properties: z
    .record(z.string().trim().min(1, 'a property needs a name').max(255), z.string().max(4096))
    .refine((value) => Object.keys(value).length <= MAX_PROPERTIES, `at most ${MAX_PROPERTIES} properties`)
    .optional(),
  kubernetes: kubernetesSettings.optional(),
  pushTelemetry: pushTelemetrySettings.optional(),
};

const createBody = z.object({ name, ...fields });
// The name may be sent back unchanged (a form posts what it shows), but never changed.
const updateBody = z.object({ name: name.optional(), ...fields });
const idParams = z.object({ id: z.uuid() });
const deleteQuery = z.object({
  // Spec 001 §4: the flag says whether the resources the agent created go too; leaving it out keeps them.
  cleanup: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
});
const deletedAgent = z.object({
  id: z.guid(),
  cleanup: z.boolean(),
  deleted: z.object({ checks: z.number().int(), canaries: z.number().int(), config_items: z.number().int(), config_scrapers: z.number().int() }),
});

function nameTaken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'agents_name_key';
}

/**
 * Agents of spec 001 §2.6: create and token rotation (each answering the token once), read, update and delete with an
 * optional cleanup of what the agent created. The list is read through the data API (agents_summary), whose writes of
 * `settings` are checked here too.
 */
export const agentsPlugin: DomainPlugin = {
  name: 'agents',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;

    writeHooksFor(context.db).register('agents', (rows) => {
      for (const row of rows) {
        if (typeof row.name === 'string' && isReservedAgentName(row.name)) {
          throw errors.validation(`name: '${LOCAL_AGENT_NAME}' names this server's own checks; choose another name`);
        }
        if (!('settings' in row)) continue;
        const parsed = agentSettings.safeParse(row.settings);
        if (!parsed.success) throw errors.invalidAgentSettings(describeIssues(parsed.error));
      }
    });

    app.post(
      '/api/agents',
      { config: { permission: WRITE }, schema: { tags: ['agents'], body: createBody, response: { 201: createdAgentSchema, ...errorResponses(409) } } },
      async (request, reply) => {
        try {
          const { agent, accessToken } = await createAgent(pool, request.body, request.principal?.personId ?? null);
          return await reply.status(201).send({ id: agent.id, name: agent.name, access_token: accessToken });
        } catch (error) {
          throw nameTaken(error) ? errors.nameTaken('agent', request.body.name) : error;
        }
      },
    );

    app.get(
      '/api/agents/:id',
      { config: { permission: READ }, schema: { tags: ['agents'], params: idParams, response: { 200: agentDetailSchema, ...errorResponses(404) } } },
      async (request) => {
        const agent = await getAgent(pool, request.params.id);
        if (agent === null) throw errors.notFound('Agent');
        return agent;
      },
    );

    app.patch(
      '/api/agents/:id',
      { config: { permission: WRITE }, schema: { tags: ['agents'], params: idParams, body: updateBody, response: { 200: agentDetailSchema, ...errorResponses(404) } } },
      async (request) => {
        const { name: requestedName, ...patch } = request.body;
        const current = await getAgent(pool, request.params.id);
        if (current === null) throw errors.notFound('Agent');
        if (requestedName !== undefined && requestedName !== current.name) throw errors.agentNameReadOnly();
        const updated = await updateAgent(pool, request.params.id, patch);
        if (updated === null) throw errors.notFound('Agent');
        return updated;
      },
    );

    app.delete(
      '/api/agents/:id',
      {
        config: { permission: WRITE },
        schema: { tags: ['agents'], params: idParams, querystring: deleteQuery, response: { 200: deletedAgent, ...errorResponses(404) } },
      },
      async (request) => {
        const deleted = await deleteAgent(pool, request.params.id, request.query.cleanup);
        if (deleted === null) throw errors.notFound('Agent');
        return { id: request.params.id, cleanup: request.query.cleanup, deleted };
      },
    );

    app.post(
      '/api/agents/:id/token',
      { config: { permission: WRITE }, schema: { tags: ['agents'], params: idParams, response: { 200: createdAgentSchema, ...errorResponses(404) } } },
      async (request) => {
        const rotated = await rotateAgentToken(pool, request.params.id);
        if (rotated === null) throw errors.notFound('Agent');
        return { id: rotated.id, name: rotated.name, access_token: rotated.accessToken };
      },
    );
  },
};
