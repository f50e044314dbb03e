import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { startScheduleWorkers } from '../../platform/schedule-workers';
import { DB_WRITTEN_EVENT } from '../../data-api/write-hooks';
import { requestTopologyRun, syncTopologySchedule, TopologyScheduler } from './topology-scheduler';

/** Published by Run Now; the scheduler of this process claims the topology at once instead of at its next poll. */
export const TOPOLOGY_RUN_REQUESTED_EVENT = 'topology.run-requested';
const WRITE = { resource: 'topologies', action: 'write' } as const;

const idParams = z.object({ id: z.uuid() });
const runQueuedSchema = z.object({ id: z.uuid(), status: z.literal('queued') });

/** Run Now: `POST /api/canary/run/topology/:id` (topologies are a resource of the canary service, spec 001 §6). */
export function registerTopologyRunRoutes(scoped: FastifyInstance, context: AppContext): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
  const { pool } = context.db;
  app.post(
    '/api/canary/run/topology/:id',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['topology'],
        summary: 'Run Now: queue a build of the topology; its job_history row follows once a worker starts it',
        params: idParams,
        response: { 202: runQueuedSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const found = await pool.query<{ agent_id: string | null }>('select agent_id from topologies where id = $1 and deleted_at is null', [request.params.id]);
      const topology = found.rows[0];
      if (topology === undefined) throw errors.notFound('Topology');
      if (topology.agent_id !== null) {
        throw errors.badRequest('This topology is built by its agent, not by this server', undefined, 'The agent builds it on its own schedule');
      }
      if (!(await requestTopologyRun(pool, request.params.id))) throw errors.notFound('Topology');
      context.bus.publish({ name: TOPOLOGY_RUN_REQUESTED_EVENT, payload: { id: request.params.id } });
      return reply.status(202).send({ id: request.params.id, status: 'queued' as const });
    },
  );
}

/** The scheduler that builds every topology of this server on its schedule, at once when one is saved or Run Now. */
export function startTopologyWorkers(scoped: FastifyInstance, context: AppContext): void {
  const { pool } = context.db;
  startScheduleWorkers(scoped, context.bus, {
    scheduler: new TopologyScheduler({
      pool,
      secretKey: context.config.secretKey,
      leaseSeconds: context.config.leaseSeconds,
      onError: (error) => scoped.log.error({ err: error }, 'topology scheduler'),
      onRun: (_id, outcome) => context.metrics.topologyRunDuration.observe({ status: outcome.status }, outcome.durationMs / 1000),
    }),
    sync: () => syncTopologySchedule(pool),
    requestedEvent: TOPOLOGY_RUN_REQUESTED_EVENT,
    written: { event: DB_WRITTEN_EVENT, matches: (event) => event.payload.table === 'topologies' },
    label: 'topology',
  });
}
