import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { authorizeMetrics } from './metrics-access';

/**
 * GET /metrics on the main listener (Prometheus text format). The route is public to the session guard because a
 * scraper has no session: it is guarded by the metrics token instead, and answers 404 with a hint when metrics are
 * not served here (docs/metrics.md).
 */
export const metricsPlugin: DomainPlugin = {
  name: 'metrics',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/metrics',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['platform'],
          summary: 'Prometheus metrics of this process (text format 0.0.4); needs Authorization: Bearer <OPSDECK_METRICS_TOKEN>',
          response: { 200: z.string().describe('text/plain; version=0.0.4'), ...errorResponses(401, 404) },
        },
      },
      async (request, reply) => {
        authorizeMetrics(context.config, 'main', request.headers.authorization);
        const body = await context.metrics.render();
        return reply.header('content-type', context.metrics.contentType).header('cache-control', 'no-store').send(body);
      },
    );
  },
};
