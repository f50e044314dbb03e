import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import type { AppContext } from '../../platform/context';
import type { DomainPlugin } from '../../platform/http';
import { consumeWhileOpen } from '../../platform/event-queue';
import { PollLoop } from '../../platform/poll-loop';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationEngine } from './notification-engine';
import { registerNotificationSaveRules } from './notification-save-rules';
import { DELIVERABLE_NOTIFICATION_TYPES, deliverNotification } from '../notification-providers';

/**
 * Delivery loops per worker process: while one waits on a provider the other uses the database, about 1.3× the
 * messages per second of one on the embedded database (bench `notifications`). Flap windows are claimed atomically, so
 * two loops never both send for two flips of one resource.
 */
const DELIVERY_LOOPS = 2;
/** Unless OPSDECK_EVENT_LEASE_SECONDS says otherwise: five claimed events, each within the 10 s delivery timeout. */
const DEFAULT_LEASE_SECONDS = 5 * 60;
/** How often a worker looks for held events (waitFor) whose wait is over: waits are minutes, so seconds late is fine. */
const RELEASE_POLL_MS = 5000;
const RELEASE_BATCH = 20;

/** Delivery calls outside services, so it runs only in worker processes and stops with the app. */
function registerWorkers(app: FastifyInstance, context: AppContext): void {
  if (context.config.role === 'api') return;
  const log = app.log.child({ module: 'notifications' });
  const { handlers, releaseWaiting } = notificationEngine({
    pool: context.db.pool,
    secretKey: context.config.secretKey,
    deliver: deliverNotification,
    fallbackUrl: `http://localhost:${context.config.port}`,
    onDelivery: (result) => context.metrics.notificationDeliveries.inc({ result }),
    ...(context.config.publicUrl === null ? {} : { publicUrl: context.config.publicUrl }),
  });
  const consumers = Array.from(
    { length: DELIVERY_LOOPS },
    () =>
      new NotificationDeliveryConsumer({
        pool: context.db.pool,
        bus: context.bus,
        consumer: NOTIFICATION_CONSUMER,
        handlers,
        // A claim's events share one lease and each may call several providers (in parallel, each within the 10 s
        // delivery timeout): a small claim keeps the batch well inside the lease while sparing the queue round trips.
        claimBatch: 5,
        leaseMs: (context.config.eventLeaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000,
        backoffMs: 30_000,
        onError: (error, event) => log.warn({ err: error, event: event?.name, id: event?.id }, 'notification delivery failed'),
      }),
  );
  consumeWhileOpen(app, consumers);
  const releases = new PollLoop({
    pass: async () => {
      // A full batch means more may be due: keep going until a pass finds fewer.
      while ((await releaseWaiting(RELEASE_BATCH)) === RELEASE_BATCH);
    },
    pollMs: RELEASE_POLL_MS,
    onError: (error) => log.warn({ err: error }, 'releasing held notifications failed'),
  });
  app.addHook('onReady', async () => releases.start());
  app.addHook('onClose', async () => releases.stop());
}

const testSendSchema = z.object({
  recipient: z.string().describe("The recipient key, as the send history names it (service:<connection>, email:<address>)"),
  status: z.enum(['sent', 'failed', 'skipped']),
  detail: z.string().nullable().describe("The provider's error, or why the recipient was skipped"),
});

/** POST /api/notifications/{id}/test: Send test from the editor, answered per recipient (#34 item 18). */
function registerTestRoute(scoped: FastifyInstance, context: AppContext): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
  const { sendTest } = notificationEngine({
    pool: context.db.pool,
    secretKey: context.config.secretKey,
    deliver: deliverNotification,
    fallbackUrl: `http://localhost:${context.config.port}`,
    ...(context.config.publicUrl === null ? {} : { publicUrl: context.config.publicUrl }),
  });
  app.post(
    '/api/notifications/:id/test',
    {
      config: { permission: { resource: 'notifications', action: 'write' } },
      schema: {
        tags: ['notifications'],
        summary: "Send a test message to each recipient of the notification, through its connections; nothing enters the send history",
        params: z.object({ id: z.uuid() }),
        response: { 200: z.object({ results: z.array(testSendSchema) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const results = await sendTest(request.params.id);
      if (results === null) throw errors.notFound('Notification');
      return { results };
    },
  );
}

export const notificationsPlugin: DomainPlugin = {
  name: 'notifications',
  register(app, context) {
    registerNotificationSaveRules(context.db, DELIVERABLE_NOTIFICATION_TYPES);
    registerWorkers(app, context);
    registerTestRoute(app, context);
  },
};
