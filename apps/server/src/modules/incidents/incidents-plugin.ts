import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, EVIDENCE_TYPES } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { EventQueueConsumer } from '../../platform/event-queue';
import type { DomainPlugin } from '../../platform/http';
import { validateDefinitionOfDoneScript } from './definition-of-done';
import { DB_WRITTEN_EVENT, writeHooksFor } from '../../data-api/write-hooks';
import { DEFINITION_OF_DONE_CONSUMER, DefinitionOfDoneScheduler, definitionOfDoneHandlers } from './definition-of-done-scheduler';
import { registerIncidentCommands } from './incident-command-routes';
import { loadPostmortem, renderPostmortem } from './postmortem';
import { resourceSearchBody, resourceSearchResponse, searchResources } from './resource-search';
import { RESPONDER_CREATED_EVENT, responderNotifier } from './responder-notifier';
import { registerResponderSaveRules } from './responder-save-rules';

function registerRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const pool = context.db.pool;

  typed.post(
    '/api/resources/search',
    {
      config: { permission: { resource: 'database', action: 'read' } },
      schema: {
        tags: ['incidents'],
        summary: 'Search checks, components and configs by name for the add-evidence wizard',
        description: 'Each list is returned only for the kinds asked for (others are empty), at most 50 rows, by name.',
        body: resourceSearchBody,
        response: { 200: resourceSearchResponse },
      },
    },
    async (request) => searchResources(pool, request.body),
  );

  typed.post(
    '/api/incidents/definition-of-done/validate',
    {
      config: { permission: { resource: 'evidences', action: 'write' } },
      schema: {
        tags: ['incidents'],
        summary: 'Check a definition-of-done CEL script before saving it',
        description:
          'Valid when it parses, uses only the variables of the evidence type (check, topology, config, config_analysis) and returns a bool. Without a type, valid for any of them.',
        body: z.object({ script: z.string().nullable(), type: z.enum(EVIDENCE_TYPES).optional() }),
        response: { 200: z.object({ valid: z.literal(true) }), 400: errorBodySchema },
      },
    },
    async (request) => {
      const outcome = validateDefinitionOfDoneScript(request.body.script, request.body.type);
      if (!outcome.valid) throw errors.invalidDefinitionOfDoneScript(outcome.message, outcome.details);
      return { valid: true as const };
    },
  );

  typed.get(
    '/api/incidents/:id/postmortem',
    {
      config: { permission: { resource: 'incident', action: 'read' } },
      schema: {
        tags: ['incidents'],
        summary: 'Download the postmortem of an incident as Markdown',
        description: 'The id is the incident uuid or its display id (INC-12). Answers text/markdown as an attachment INC-<n>-postmortem.md.',
        params: z.object({ id: z.string().min(1).max(64).regex(/^[\w-]+$/, 'must be an incident uuid or display id such as INC-12') }),
        response: { 200: z.string().describe('text/markdown'), 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const data = await loadPostmortem(pool, request.params.id);
      if (data === null) throw errors.notFound('Incident');
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${data.incident.incident_id}-postmortem.md"`)
        .header('cache-control', 'no-store')
        .send(renderPostmortem(data));
    },
  );
}

/** Background work runs only in processes with the worker role, and stops when the app closes. */
function registerWorkers(app: FastifyInstance, context: AppContext): void {
  if (context.config.role === 'api') return;
  const log = app.log.child({ module: 'incidents' });
  const consumer = new EventQueueConsumer({
    pool: context.db.pool,
    bus: context.bus,
    handlers: { [RESPONDER_CREATED_EVENT]: responderNotifier(context.db.pool, context.config.secretKey) },
    // A notifier talks to outside services: one event per claim keeps each within its own lease.
    claimBatch: 1,
    onError: (error, event) => log.warn({ err: error, event: event?.name, id: event?.id }, 'responder notification failed'),
  });
  const scheduler = new DefinitionOfDoneScheduler({
    pool: context.db.pool,
    bus: context.bus,
    onError: (error) => log.warn({ err: error }, 'definition of done evaluation failed'),
  });
  const definitionOfDone = new EventQueueConsumer({
    pool: context.db.pool,
    bus: context.bus,
    consumer: DEFINITION_OF_DONE_CONSUMER,
    handlers: definitionOfDoneHandlers(scheduler),
    // Events this process commits wake it through the bus at once; the slow poll catches up on other writers' events
    // without competing with requests on the embedded database's one connection.
    pollIntervalMs: 10_000,
    backoffMs: 5_000,
    onError: (error, event) => log.warn({ err: error, event: event?.name, id: event?.id }, 'definition of done event failed'),
  });
  app.addHook('onReady', async () => {
    consumer.start();
    scheduler.start();
    definitionOfDone.start();
  });
  app.addHook('onClose', async () => {
    await consumer.stop();
    await definitionOfDone.stop();
    await scheduler.stop();
  });
}

/**
 * Evidence is written through the generic data API; its definition-of-done script is checked there before the row is
 * stored, and every evidence write wakes the evaluator so `done` follows at once. Responders that send through a
 * team's connection are checked there too (responder-save-rules.ts).
 */
function registerDataApiHooks(app: FastifyInstance, context: AppContext): void {
  registerResponderSaveRules(context.db);
  writeHooksFor(context.db).register('evidences', (rows) => {
    for (const row of rows) {
      if (!('script' in row) || (row.script !== null && typeof row.script !== 'string')) continue;
      const result = validateDefinitionOfDoneScript(row.script, typeof row.type === 'string' ? row.type : undefined);
      if (!result.valid) throw errors.invalidDefinitionOfDoneScript(result.message, result.details);
    }
  });
  const unsubscribe = context.bus.subscribe(DB_WRITTEN_EVENT, (event) => {
    if (event.payload.table === 'evidences') context.bus.publish({ name: 'evidence.updated', payload: {} });
  });
  app.addHook('onClose', async () => unsubscribe());
}

export const incidentsPlugin: DomainPlugin = {
  name: 'incidents',
  register(app, context) {
    registerRoutes(app, context);
    registerIncidentCommands(app, context);
    registerWorkers(app, context);
    registerDataApiHooks(app, context);
  },
};
