import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  catalogChangesRequestSchema,
  catalogChangesResponseSchema,
  catalogSummaryRequestSchema,
  catalogSummaryResponseSchema,
} from '@opsdeck/shared';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { catalogChanges } from './catalog-changes';
import { catalogSummary } from './catalog-summary';

// The catalog tables are guarded by `database` in the data API too (data-api/resource-map.ts): one rule for both ways in.
const READ = { resource: 'database', action: 'read' } as const;

/** The Refresh buttons send `Cache-Control: no-cache`: an answer that reflects every write so far, never a kept one. */
function wantsFresh(headers: { 'cache-control'?: string }): boolean {
  return /\bno-cache\b/i.test(headers['cache-control'] ?? '');
}

function ageSeconds(computedAt: number): string {
  return String(Math.max(0, Math.floor((Date.now() - computedAt) / 1000)));
}

/** The catalog service of spec 002 §7: the grouped summary and the changes list, both counted and paged in SQL. */
export const catalogPlugin: DomainPlugin = {
  name: 'catalog',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;

    app.post(
      '/api/catalog/summary',
      {
        config: { permission: READ },
        schema: {
          tags: ['catalog'],
          summary: 'Config items grouped, with counts of health, changes, insights and cost per group',
          description:
            'Answers may be served up to 300 s old (spec 002 §9) while a fresh one is computed; the `Age` header says how old, in seconds. ' +
            'Send `Cache-Control: no-cache` for an answer that reflects every write so far.',
          body: catalogSummaryRequestSchema,
          response: { 200: catalogSummaryResponseSchema },
        },
      },
      async (request, reply) => {
        const answer = await catalogSummary(pool, request.body, !wantsFresh(request.headers));
        void reply.header('Age', ageSeconds(answer.computedAt));
        return answer.value;
      },
    );

    app.post(
      '/api/catalog/changes',
      {
        config: { permission: READ },
        schema: {
          tags: ['catalog'],
          summary: 'A page of config changes, optionally of one item and the items related to it',
          description:
            'The page is read now. Its `total` and counts, for a request without `id`, may be up to 300 s old (spec 002 §9) while fresh ones are ' +
            'counted; the `Age` header says how old, in seconds. Send `Cache-Control: no-cache` for counts that reflect every write so far.',
          body: catalogChangesRequestSchema,
          response: { 200: catalogChangesResponseSchema, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const answer = await catalogChanges(pool, request.body, { allowStale: !wantsFresh(request.headers) });
        void reply.header('Age', ageSeconds(answer.computedAt));
        return answer.value;
      },
    );
  },
};
