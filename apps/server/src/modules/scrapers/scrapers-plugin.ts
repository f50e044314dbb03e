import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DomainPlugin } from '../../platform/http';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { startScheduleWorkers } from '../../platform/schedule-workers';
import { DB_WRITTEN_EVENT } from '../../data-api/write-hooks';
import { registerScrapeConfigSchemaRoute, registerScraperSpecHooks } from './spec-hooks';
import { startDemoRewrites } from './demo-rewrites';
import { requestScrape, ScrapeScheduler, syncScrapeSchedule } from './scrape-scheduler';

/** Published by Run Now; the scheduler of this process claims the scraper at once instead of at its next poll. */
export const SCRAPE_REQUESTED_EVENT = 'scraper.run-requested';
const WRITE = { resource: 'config_scrapers', action: 'write' } as const;

const idParams = z.object({ id: z.uuid() });
const runQueuedSchema = z.object({ id: z.uuid(), status: z.literal('queued') });

function startWorkers(app: Parameters<DomainPlugin['register']>[0], context: AppContext): void {
  const { pool } = context.db;
  if (context.config.seedDemo) {
    const stopRewrites = startDemoRewrites(context.config.dataDir, (error) => app.log.warn({ err: error }, 'demo manifest rewrite'));
    app.addHook('preClose', async () => stopRewrites());
  }
  startScheduleWorkers(app, context.bus, {
    scheduler: new ScrapeScheduler({
      pool,
      secretKey: context.config.secretKey,
      roots: context.config.scrapeRoots,
      ownDatabaseUrl: context.config.databaseUrl ?? null,
      leaseSeconds: context.config.leaseSeconds,
      onError: (error) => app.log.error({ err: error }, 'scrape scheduler'),
      onRun: (_id, outcome) => context.metrics.scraperRunDuration.observe({ status: outcome.status }, outcome.durationMs / 1000),
    }),
    sync: () => syncScrapeSchedule(pool),
    requestedEvent: SCRAPE_REQUESTED_EVENT,
    written: { event: DB_WRITTEN_EVENT, matches: (event) => event.payload.table === 'config_scrapers' },
    label: 'scrape',
  });
}

/**
 * Scrapers (issue #12): the spec rules on every write of config_scrapers, the spec's JSON Schema, Run Now, and outside
 * the api role the scheduler that runs each scraper on its schedule.
 */
export const scrapersPlugin: DomainPlugin = {
  name: 'scrapers',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    const { pool } = context.db;
    registerScraperSpecHooks(context, context.config.scrapeRoots, context.config.secretKey);
    registerScrapeConfigSchemaRoute(scoped);

    app.post(
      '/api/config/scrapers/:id/run',
      {
        config: { permission: WRITE },
        schema: {
          tags: ['catalog'],
          summary: 'Run Now: queue a run of the scraper; its job_history row follows once a worker starts it',
          params: idParams,
          response: { 202: runQueuedSchema, ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const found = await pool.query<{ agent_id: string | null }>('select agent_id from config_scrapers where id = $1 and deleted_at is null', [
          request.params.id,
        ]);
        const scraper = found.rows[0];
        if (scraper === undefined) throw errors.notFound('Scraper');
        if (scraper.agent_id !== null) {
          throw errors.badRequest('This scraper runs on its agent, not on this server', undefined, 'The agent runs it on its own schedule');
        }
        if (!(await requestScrape(pool, request.params.id))) throw errors.notFound('Scraper');
        context.bus.publish({ name: SCRAPE_REQUESTED_EVENT, payload: { id: request.params.id } });
        return reply.status(202).send({ id: request.params.id, status: 'queued' as const });
      },
    );

    if (context.config.role !== 'api') startWorkers(scoped, context);
  },
};
