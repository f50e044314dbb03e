import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { EVENT_QUEUE_WAKE } from '../../platform/event-queue';
import type { DomainPlugin } from '../../platform/http';
import { RetentionScheduler } from './retention';

const retryBody = z.object({
  name: z.string().min(1).max(200),
  /** Only this consumer's rows; all consumers' when absent. */
  consumer: z.string().min(1).max(200).nullable().optional(),
});

function registerRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/api/event-queue/retry',
    {
      // The data API guards event_queue_summary with `database`; retrying is writing to that table.
      config: { permission: { resource: 'database', action: 'write' } },
      schema: {
        tags: ['event-queue'],
        summary: 'Run the failed events of one name again',
        description:
          'Resets attempts, error and last_attempt of the failed event_queue rows of the name (and consumer, when given) so ' +
          'their consumers claim them again. Answers how many rows were reset.',
        body: retryBody,
        response: { 200: z.object({ retried: z.number().int() }), 400: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const { name, consumer } = request.body;
      const result = await context.db.pool.query(
        `update event_queue set attempts = 0, error = null, last_attempt = null
          where name = $1 and error is not null and ($2::text is null or consumer = $2)`,
        [name, consumer ?? null],
      );
      const retried = result.rowCount ?? 0;
      if (retried > 0) context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: { name } });
      return { retried };
    },
  );
}

function registerWorkers(app: FastifyInstance, context: AppContext): void {
  if (context.config.role === 'api') return;
  const log = app.log.child({ module: 'events' });
  const retention = new RetentionScheduler({ pool: context.db.pool, onError: (error) => log.warn({ err: error }, 'retention cleanup failed') });
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', async () => retention.stop());
}

export const eventsPlugin: DomainPlugin = {
  name: 'events',
  register(app, context) {
    registerRoutes(app, context);
    registerWorkers(app, context);
  },
};
