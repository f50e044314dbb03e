import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COMPONENT_STATUSES, SNAPSHOT_RANGES, type TopologyResponse } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { buildTopologySnapshot, parseSnapshotRelated, parseSnapshotStart, SNAPSHOT_MAX_DAYS, snapshotContentDisposition } from './snapshot';
import { loadTopologyJson, parseTopologyQuery } from './topology-query';

const READ = { resource: 'topologies', action: 'read' } as const;

const statusSchema = z.enum(COMPONENT_STATUSES);
const countsSchema = z.record(z.string(), z.record(z.string(), z.number()));

interface ComponentSchemaShape {
  components?: ComponentSchemaShape[];
}

const componentSchema: z.ZodType<ComponentSchemaShape> = z.object({
  id: z.uuid(),
  topology_id: z.uuid().nullable(),
  parent_id: z.uuid().nullable(),
  path: z.string().describe("Dot-separated ancestor ids, root first; '' for a root"),
  name: z.string(),
  text: z.string().nullable(),
  type: z.string().nullable(),
  icon: z.string().nullable(),
  description: z.string().nullable(),
  owner: z.string().nullable(),
  lifecycle: z.string().nullable(),
  namespace: z.string().nullable(),
  status: statusSchema,
  status_reason: z.string().nullable(),
  agent_id: z.uuid().nullable(),
  external_id: z.string().nullable(),
  is_leaf: z.boolean(),
  hidden: z.boolean(),
  labels: z.record(z.string(), z.string()),
  properties: z.array(z.record(z.string(), z.unknown())),
  summary: z.object({
    checks: z.object({ healthy: z.number(), unhealthy: z.number(), warning: z.number(), unknown: z.number() }),
    incidents: countsSchema.describe('Open incidents by type, then severity'),
    insights: countsSchema.describe('Open insights by analysis type, then severity'),
  }),
  checks: z.array(z.object({ id: z.uuid(), name: z.string(), icon: z.string().nullable(), type: z.string().nullable(), status: z.string().nullable() })),
  teams: z.array(z.object({ id: z.uuid(), name: z.string(), icon: z.string().nullable() })),
  logs: z.boolean().describe('Whether the component has log selectors'),
  cost_per_minute: z.number().nullable(),
  cost_total_1d: z.number().nullable(),
  cost_total_7d: z.number().nullable(),
  cost_total_30d: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  get components() {
    return z.array(componentSchema).optional().describe('Children, unhealthy first, then warning, healthy, unknown, then by name; absent below the depth returned');
  },
});

const topologyResponseSchema = z.object({
  components: z.array(componentSchema),
  healthStatuses: z.array(statusSchema),
  tags: z.record(z.string(), z.array(z.string())).describe('Label key → its values, sorted'),
  teams: z.array(z.string()).describe('Team names'),
  types: z.array(z.string()),
});

const filterText = z.string().max(2000).optional();
const topologyQuerySchema = z.object({
  id: z.string().max(64).optional().describe('A component uuid: that component with its children and grandchildren'),
  type: filterText.describe('Component type of the cards'),
  team: filterText.describe('Team name of the cards'),
  labels: filterText.describe('key=value pairs joined by commas; a card must have all of them'),
  status: filterText.describe(`One or more of ${COMPONENT_STATUSES.join(', ')}, joined by commas`),
  agent_id: z.string().max(64).optional().describe('An agent uuid, or local for components no agent reports'),
});

const snapshotQuerySchema = z.object({
  start: z
    .string()
    .max(64)
    .optional()
    .describe(`Nm, Nh or Nd before now (at most ${SNAPSHOT_MAX_DAYS}d; the dialog offers ${SNAPSHOT_RANGES.map((range) => range.start).join(', ')}), or an ISO timestamp; default 1h`),
  related: z.string().max(8).optional().describe('true to add the components linked to the subtree; default false'),
});

/** `GET /api/topology` and the snapshot download (spec 001 §2.9, spec 002 §7), both read on `topologies`. */
export function registerTopologyReadRoutes(scoped: FastifyInstance, context: AppContext): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
  const { pool } = context.db;

  app.get(
    '/api/topology',
    {
      config: { permission: READ },
      schema: {
        tags: ['topology'],
        summary: 'Component cards: the roots of every topology, or one component, each with two levels of children',
        description:
          "Filters (type, team, labels, status, agent_id; 'All' is the same as absent) apply to the card level: the roots " +
          'without id, the children of id with it. healthStatuses, tags, teams and types describe that level before ' +
          'filtering. An unknown or deleted id answers no components.',
        querystring: topologyQuerySchema,
        response: { 200: topologyResponseSchema },
      },
    },
    async (request, reply) => {
      const body = await loadTopologyJson(pool, parseTopologyQuery(request.query));
      // Already JSON text: Fastify sends a string as it is, past a response serializer that would walk every component.
      return reply.type('application/json; charset=utf-8').send(body as unknown as TopologyResponse);
    },
  );

  app.get(
    '/api/snapshot/topology/:id',
    {
      config: { permission: READ },
      schema: {
        tags: ['topology'],
        summary: 'Download a snapshot of a component: its subtree, checks, configs and incidents over a range, as a zip',
        description:
          'Answers application/zip as an attachment "<topology name>-snapshot.zip" holding README.md, components.json, ' +
          'checks.json, configs.json and incidents.json. Check specs and config content are left out.',
        params: z.object({ id: z.uuid() }),
        querystring: snapshotQuerySchema,
        response: { 200: z.string().describe('application/zip'), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const now = new Date();
      const since = parseSnapshotStart(request.query.start, now);
      const related = parseSnapshotRelated(request.query.related);
      const snapshot = await buildTopologySnapshot(pool, request.params.id, { since, related, now });
      if (snapshot === null) throw errors.notFound('Component');
      const zip = Buffer.from(snapshot.zip.buffer, snapshot.zip.byteOffset, snapshot.zip.byteLength);
      // The schema documents the body for OpenAPI; a Buffer goes out as it is, past the response serializer.
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', snapshotContentDisposition(snapshot.topologyName))
        .send(zip as unknown as string);
    },
  );
}
