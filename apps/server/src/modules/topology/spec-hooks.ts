import type { FastifyInstance } from 'fastify';
import { topologySpecJsonSchema } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { registerSchemaRoute } from '../../platform/schema-route';
import { writeHooksFor, type WriteMethod } from '../../data-api/write-hooks';
import { checkSpecTargets, isValidSchedule } from '../health';
import { parseTopologySpec, type ParsedTopologySpec } from './spec';

const TABLE = 'topologies';
const READ = { resource: 'topologies', action: 'read' } as const;
const NAME_HINT = 'Give the topology a name, or paste the whole Topology resource with metadata.name';

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function isEmptyMap(value: unknown): boolean {
  return isBlank(value) || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);
}

/** The spec of a row parsed once per write, shared by the validator and the transform. */
function parsedSpecs(rows: ReadonlyArray<Record<string, unknown>>): Array<ParsedTopologySpec | null> {
  return rows.map((row) => (row.spec === undefined ? null : parseTopologySpec(row.spec)));
}

/**
 * Spec 001 §5: a topology has a name, its spec follows the save-time rules and its schedule parses. A new row may take
 * its name from the pasted resource's metadata; an update that leaves `name` out keeps the stored one.
 */
export function validateTopologyRows(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): void {
  if (method === 'DELETE') return;
  const specs = parsedSpecs(rows);
  rows.forEach((row, index) => {
    const metadataName = specs[index]?.metadata?.name;
    const needsName = method === 'POST' ? metadataName === undefined : row.name !== undefined;
    if (needsName && (typeof row.name !== 'string' || row.name.trim() === '')) throw errors.topologySpec('name', 'is required', NAME_HINT);
    if (typeof row.name === 'string' && row.name.length > 255) throw errors.topologySpec('name', 'must be at most 255 characters');
    if (isBlank(row.schedule)) return;
    if (typeof row.schedule !== 'string' || !isValidSchedule(row.schedule)) {
      throw errors.topologySpec('schedule', `'${String(row.schedule)}' is not a valid schedule`, 'Write @every 5m, @hourly, @daily or a cron such as */10 * * * *');
    }
  });
}

/**
 * What a pasted resource brings: a new row's missing name, namespace and labels from `metadata`, and the schedule
 * column from `spec.schedule` when the row sets none (on updates too, so the column follows the spec it came from).
 */
export function fillTopologyRows(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): Array<Record<string, unknown>> {
  if (method === 'DELETE') return [...rows];
  const specs = parsedSpecs(rows);
  return rows.map((row, index) => {
    const spec = specs[index];
    if (spec === null || spec === undefined) return row;
    const filled: Record<string, unknown> = { ...row };
    const metadata = spec.metadata;
    if (method === 'POST' && metadata !== null) {
      if (isBlank(row.name) && metadata.name !== undefined) filled.name = metadata.name;
      if (isBlank(row.namespace) && metadata.namespace !== undefined) filled.namespace = metadata.namespace;
      if (isEmptyMap(row.labels) && metadata.labels !== undefined) filled.labels = metadata.labels;
    }
    if (isBlank(row.schedule) && spec.schedule !== null) filled.schedule = spec.schedule;
    return filled;
  });
}

/** Save-time rules for every write of topologies through /api/db. */
export function registerTopologySpecHooks(context: AppContext): void {
  const hooks = writeHooksFor(context.db);
  // Check lookups and inline checks keep a named connection's url on its origin, as canaries do (read defensively:
  // checks run before the validators).
  hooks.registerCheck(TABLE, async (rows) => {
    for (const row of rows) if (row.spec !== undefined && row.spec !== null) await checkSpecTargets(context.db.pool, row.spec);
  });
  hooks.register(TABLE, (rows, method) => validateTopologyRows(rows, method));
  hooks.registerTransform(TABLE, (rows, method) => fillTopologyRows(rows, method));
}

/** `GET /api/schemas/topology.schema.json`, as the scrape-config schema is served. */
export function registerTopologySchemaRoute(scoped: FastifyInstance): void {
  registerSchemaRoute(scoped, {
    file: 'topology.schema.json',
    permission: READ,
    tag: 'topology',
    summary: 'The topology spec (a Topology resource or its spec) as a JSON Schema, for editors that check YAML or JSON as it is typed',
    document: topologySpecJsonSchema,
  });
}
