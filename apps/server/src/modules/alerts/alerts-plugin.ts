import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context';
import { EVENT_QUEUE_WAKE } from '../../platform/event-queue';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { ALERT_LIMITS, alertErrors } from './alert-errors';
import { alertsFromAlertmanager, alertsFromWebhook, ingestAlerts, type NormalizedAlert } from './alert-ingest';
import { alertmanagerBodySchema, genericBodySchema, ingestReplySchema } from './alert-payloads';

/**
 * Refuses a body announced as larger than the limit before it is read, with the coded 413 (a chunked body without a
 * length still stops at the route's bodyLimit, with Fastify's own code).
 */
async function refuseLargeBody(request: FastifyRequest): Promise<void> {
  const length = Number(request.headers['content-length'] ?? '0');
  if (Number.isFinite(length) && length > ALERT_LIMITS.bodyBytes) throw alertErrors.bodyTooLarge(length);
}

const PERMISSION = { resource: 'incident', action: 'write' } as const;

function registerRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const pool = context.db.pool;

  const store = async (alerts: NormalizedAlert[]) => {
    const { events, ...reply } = await ingestAlerts(pool, alerts);
    // Consumers in this process look at once; other processes find the events at their next poll.
    if (events > 0) context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: { name: 'alert' } });
    return reply;
  };

  typed.post(
    '/api/alerts/alertmanager',
    {
      config: { permission: PERMISSION },
      bodyLimit: ALERT_LIMITS.bodyBytes,
      preParsing: refuseLargeBody,
      schema: {
        tags: ['alerts'],
        summary: "Receive Prometheus Alertmanager's webhook (payload version 4)",
        description:
          'Point an Alertmanager webhook_config at this URL with a bearer token (an API token, or a session token) of a responder or higher. ' +
          'Alerts are stored by fingerprint: a repeat of the same status only counts, a status change queues alert.firing or alert.resolved for the ' +
          'incident rules. At most 1,000 alerts and 1 MiB per request; label keys up to 128 characters, values up to 1,024.',
        body: alertmanagerBodySchema,
        response: { 202: ingestReplySchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request, reply) => reply.status(202).send(await store(alertsFromAlertmanager(request.body))),
  );

  typed.post(
    '/api/alerts/webhook',
    {
      config: { permission: PERMISSION },
      bodyLimit: ALERT_LIMITS.bodyBytes,
      preParsing: refuseLargeBody,
      schema: {
        tags: ['alerts'],
        summary: 'Receive alerts from any source as generic JSON',
        description:
          'One alert {name?, status, severity?, labels, annotations?, fingerprint?, startsAt?, endsAt?, generatorURL?} or {alerts: [...]}. ' +
          'Without a fingerprint the alert is identified by the sha256 of its sorted labels (alertname set to name). Same limits and answer as the Alertmanager route.',
        body: genericBodySchema,
        response: { 202: ingestReplySchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request, reply) => reply.status(202).send(await store(alertsFromWebhook(request.body))),
  );
}

export const alertsPlugin: DomainPlugin = {
  name: 'alerts',
  register(app, context) {
    registerRoutes(app, context);
  },
};
