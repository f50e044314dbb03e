import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { can, LOG_BACKEND_TYPES, logBackendSpecJsonSchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { startDemoLogAppender } from './demo-logs';
import { registerLogBackendSaveRules } from './log-backend-save-rules';
import { fetchLogs } from './log-query';
import type { LogSubjectContext } from './log-templates';

const READ = { resource: 'logging_backends', action: 'read' } as const;

const logsQuerySchema = z.object({
  // Strings, checked by fetchLogs, so a bad value is its coded 400 (OD_LOGS_*) rather than a generic validation error.
  id: z.string().optional().describe('A component id or a configuration item id'),
  name: z.string().optional().describe('The log selector (backend) name; default: the first selector of the component or item'),
  query: z.string().optional().describe('Case-insensitive text a line must contain'),
  start: z.string().optional().describe('A time-range key (15m, 1h, 1d…), date math (now-1h) or an ISO 8601 time; default 1h'),
  limit: z.string().optional().describe('Lines at most, 1 to 100000; default 1000'),
});

const logLineSchema = z.object({
  id: z.string(),
  timestamp: z.string().nullable(),
  message: z.string(),
  labels: z.record(z.string(), z.string()),
});

const logsResponseSchema = z.object({
  lines: z.array(logLineSchema).describe('Newest first'),
  total: z.number().int().describe('Matching lines the backend counted (file and kubernetes: those seen before stopping at limit + 1)'),
  truncated: z.boolean().describe('More lines matched than were returned'),
  backend: z.object({ id: z.string(), name: z.string(), type: z.enum(LOG_BACKEND_TYPES) }),
});

/** The demo files grow only in a worker process of a demo install, and stop with the app. */
function registerDemoAppender(app: FastifyInstance, context: AppContext): void {
  if (context.config.role === 'api' || !context.config.seedDemo) return;
  const root = `${context.config.dataDir}/logs`;
  let stop: (() => void) | null = null;
  app.addHook('onReady', async () => {
    stop = startDemoLogAppender(root, (error) => app.log.warn({ err: error }, 'demo log append'));
  });
  app.addHook('preClose', async () => stop?.());
}

function registerRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/logs',
    {
      config: { permission: READ },
      schema: {
        tags: ['logs'],
        summary: 'Log lines of a component or configuration item from one of its log backends, newest first',
        description:
          'Also needs read on topologies for a component, or on database for a configuration item. A backend that cannot be reached or answers an error is a 502 OD_LOG_BACKEND_UNREACHABLE.',
        querystring: logsQuerySchema,
        response: { 200: logsResponseSchema, ...errorResponses(400, 403, 404, 422, 502) },
      },
    },
    async (request) => {
      const roles = request.principal?.roles ?? [];
      return fetchLogs(
        {
          pool: context.db.pool,
          secretKey: context.config.secretKey,
          roots: context.config.logRoots,
          authorizeSubject: (subject: LogSubjectContext) => {
            const resource = subject.kind === 'component' ? 'topologies' : 'database';
            if (!can(roles, resource, 'read')) throw errors.forbidden(`read ${resource}`);
          },
          // The message only: errors of the HTTP and Kubernetes clients can carry request options.
          onBackendError: (backend, error) => request.log.warn({ backend, reason: error instanceof Error ? error.message : String(error) }, 'log backend failed'),
        },
        request.query,
      );
    },
  );
  typed.get(
    '/api/logs/schema',
    {
      config: { permission: READ, cacheable: true },
      schema: {
        tags: ['logs'],
        summary: 'The log backend spec as a JSON Schema, for editors that check YAML or JSON as it is typed',
        response: { 200: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12)') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, max-age=3600');
      return logBackendSpecJsonSchema();
    },
  );
}

export const logsPlugin: DomainPlugin = {
  name: 'logs',
  register(app, context) {
    registerLogBackendSaveRules(context.db, context.config.secretKey, context.config.logRoots);
    registerRoutes(app, context);
    registerDemoAppender(app, context);
  },
};
