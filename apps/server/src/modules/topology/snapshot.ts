import type pg from 'pg';
import { strToU8, zipSync } from 'fflate';
import type { TopologyComponent } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { COMPONENT_COLUMNS, COMPONENT_ROWS_CTES, componentFromRow, type ComponentRow } from './topology-query';

/** The longest range a snapshot covers (spec 001 §2.9 offers up to 7 days; the API takes up to 30). */
export const SNAPSHOT_MAX_DAYS = 30;
/** Per check, per config: the newest statuses, changes and insights kept in a snapshot. */
export const SNAPSHOT_ROWS_PER_ITEM = 1000;

const UNIT_MINUTES: Readonly<Record<string, number>> = { m: 1, h: 60, d: 1440 };
const MINUTE_MS = 60_000;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The start of a snapshot's range: `Nm`, `Nh` or `Nd` before `now` (the `start` of SNAPSHOT_RANGES), or an ISO
 * timestamp; at most SNAPSHOT_MAX_DAYS back. Absent means the first range of the dialog, the last hour.
 */
export function parseSnapshotStart(start: string | undefined, now: Date): Date {
  const text = (start ?? '1h').trim();
  const maxMs = SNAPSHOT_MAX_DAYS * 1440 * MINUTE_MS;
  const relative = /^(\d{1,6})([mhd])$/.exec(text);
  if (relative !== null) {
    const minutes = Number(relative[1]) * (UNIT_MINUTES[relative[2] ?? 'm'] ?? 1);
    if (minutes <= 0 || minutes * MINUTE_MS > maxMs) {
      throw errors.validation(`/start must be more than 0 and at most ${SNAPSHOT_MAX_DAYS}d`);
    }
    return new Date(now.getTime() - minutes * MINUTE_MS);
  }
  const parsed = ISO_TIMESTAMP.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(parsed)) throw errors.validation('/start must be a duration such as 1h, 6h, 3d (m, h or d) or an ISO timestamp');
  if (parsed > now.getTime()) throw errors.validation('/start must not be in the future');
  if (now.getTime() - parsed > maxMs) throw errors.validation(`/start must be at most ${SNAPSHOT_MAX_DAYS} days ago`);
  return new Date(parsed);
}

export function parseSnapshotRelated(related: string | undefined): boolean {
  if (related === undefined || related === '' || related === 'false') return false;
  if (related === 'true') return true;
  throw errors.validation('/related must be true or false');
}

/** A header-safe file name: the topology's name with anything outside printable ASCII, quotes and slashes replaced. */
export function snapshotFileName(topologyName: string): string {
  const safe = topologyName
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\/;]/g, '_')
    .trim();
  return `${safe === '' ? 'topology' : safe}-snapshot.zip`;
}

/** `attachment; filename="…"`, plus the UTF-8 name (RFC 6266) when the topology's name is not plain ASCII. */
export function snapshotContentDisposition(topologyName: string): string {
  const ascii = snapshotFileName(topologyName);
  const full = `${topologyName}-snapshot.zip`;
  const plain = `attachment; filename="${ascii}"`;
  return full === ascii ? plain : `${plain}; filename*=UTF-8''${encodeURIComponent(full)}`;
}

export interface SnapshotOptions {
  since: Date;
  related: boolean;
  now: Date;
}

export interface TopologySnapshot {
  /** The topology's name, for the file name. */
  topologyName: string;
  zip: Uint8Array;
}

interface SnapshotTarget {
  id: string;
  name: string;
  path: string;
  topology_name: string | null;
}

interface Included {
  root: TopologyComponent;
  related: TopologyComponent[];
  ids: string[];
}

async function loadComponents(pool: pg.Pool, component: SnapshotTarget, related: boolean): Promise<Included> {
  const fullPath = component.path === '' ? component.id : `${component.path}.${component.id}`;
  const rows = await pool.query<ComponentRow>(
    `with subtree as (
       select c.id from components c
        where c.deleted_at is null and (c.id = $1::uuid or c.path = $2::text or c.path like $2::text || '.%')
     ),
     linked as (
       select cr.relationship_id as id from component_relationships cr join subtree s on s.id = cr.component_id
        where cr.deleted_at is null and $3::boolean
       union
       select cr.component_id from component_relationships cr join subtree s on s.id = cr.relationship_id
        where cr.deleted_at is null and $3::boolean
     ),
     nodes as (
       select id, 0 as depth from subtree
       union all
       select l.id, 1 from linked l join components c on c.id = l.id
        where c.deleted_at is null and not exists (select 1 from subtree s where s.id = l.id)
     ),
     ${COMPONENT_ROWS_CTES}
     select ${COMPONENT_COLUMNS} from component_rows r order by r.depth, r.rank, r.name, r.id`,
    [component.id, fullPath, related],
  );
  const byId = new Map<string, TopologyComponent>();
  for (const row of rows.rows) if (row.depth === 0) byId.set(row.id, { ...componentFromRow(row), components: [] });
  let root: TopologyComponent | undefined;
  for (const row of rows.rows) {
    if (row.depth !== 0) continue;
    const node = byId.get(row.id);
    if (node === undefined) continue;
    if (row.id === component.id) root = node;
    else if (row.parent_id !== null) byId.get(row.parent_id)?.components?.push(node);
  }
  if (root === undefined) throw errors.notFound('Component');
  return {
    root,
    related: rows.rows.filter((row) => row.depth === 1).map(componentFromRow),
    ids: rows.rows.map((row) => row.id),
  };
}

async function loadChecks(pool: pg.Pool, ids: string[], since: Date, now: Date): Promise<unknown[]> {
  const rows = await pool.query<{ body: unknown }>(
    `with linked as (
       select l.check_id, array_agg(distinct l.component_id) as component_ids
         from check_component_relationships l
        where l.component_id = any($1::uuid[]) and l.deleted_at is null
        group by l.check_id
     )
     select jsonb_build_object(
              'id', k.id, 'name', k.name, 'canary_id', k.canary_id, 'canary_name', cn.name, 'namespace', k.namespace,
              'type', k.type, 'icon', k.icon, 'description', k.description, 'endpoint', k.endpoint, 'labels', k.labels,
              'status', k.status, 'severity', k.severity, 'agent_id', k.agent_id, 'last_runtime', k.last_runtime,
              'last_transition_time', k.last_transition_time, 'created_at', k.created_at, 'updated_at', k.updated_at,
              'components', to_jsonb(linked.component_ids),
              'statuses', coalesce((
                select jsonb_agg(jsonb_build_object('time', s.time, 'status', s.status, 'duration', s.duration,
                                                    'message', s.message, 'error', s.error) order by s.time desc)
                  from (select s.time, s.status, s.duration, s.message, s.error from check_statuses s
                         where s.check_id = k.id and s.time >= $2::timestamptz and s.time <= $3::timestamptz
                         order by s.time desc limit $4::int) s), '[]'::jsonb)) as body
       from linked
       join checks k on k.id = linked.check_id and k.deleted_at is null
       left join canaries cn on cn.id = k.canary_id
      order by k.name, k.id`,
    [ids, since, now, SNAPSHOT_ROWS_PER_ITEM],
  );
  return rows.rows.map((row) => row.body);
}

async function loadConfigs(pool: pg.Pool, ids: string[], since: Date): Promise<unknown[]> {
  const rows = await pool.query<{ body: unknown }>(
    `with linked as (
       select l.config_id, array_agg(distinct l.component_id) as component_ids
         from config_component_relationships l
        where l.component_id = any($1::uuid[]) and l.deleted_at is null
        group by l.config_id
     )
     select jsonb_build_object(
              'id', c.id, 'name', c.name, 'type', c.type, 'config_class', c.config_class, 'status', c.status,
              'health', c.health, 'ready', c.ready, 'description', c.description, 'external_id', to_jsonb(c.external_id),
              'tags', c.tags, 'labels', c.labels, 'agent_id', c.agent_id, 'created_at', c.created_at,
              'updated_at', c.updated_at, 'deleted_at', c.deleted_at, 'components', to_jsonb(linked.component_ids),
              'changes', coalesce((
                select jsonb_agg(jsonb_build_object('id', ch.id, 'change_type', ch.change_type, 'severity', ch.severity,
                                                    'source', ch.source, 'summary', ch.summary, 'count', ch.count,
                                                    'first_observed', ch.first_observed, 'created_at', ch.created_at,
                                                    'external_created_by', ch.external_created_by)
                                 order by ch.created_at desc, ch.id)
                  from (select * from config_changes ch
                         where ch.config_id = c.id and ch.created_at >= $2::timestamptz
                         order by ch.created_at desc, ch.id limit $3::int) ch), '[]'::jsonb),
              'insights', coalesce((
                select jsonb_agg(jsonb_build_object('id', a.id, 'analyzer', a.analyzer, 'analysis_type', a.analysis_type,
                                                    'severity', a.severity, 'status', a.status, 'summary', a.summary,
                                                    'message', a.message, 'source', a.source,
                                                    'first_observed', a.first_observed, 'last_observed', a.last_observed)
                                 order by a.last_observed desc, a.id)
                  from (select * from config_analysis a
                         where a.config_id = c.id and a.last_observed >= $2::timestamptz
                         order by a.last_observed desc, a.id limit $3::int) a), '[]'::jsonb)) as body
       from linked
       join config_items c on c.id = linked.config_id
      order by c.name, c.id`,
    [ids, since, SNAPSHOT_ROWS_PER_ITEM],
  );
  return rows.rows.map((row) => row.body);
}

async function loadIncidents(pool: pg.Pool, ids: string[], since: Date): Promise<unknown[]> {
  const rows = await pool.query<{ body: unknown }>(
    `select jsonb_build_object(
              'id', b.id, 'incident_id', b.incident_id, 'title', b.title, 'type', b.type, 'severity', b.severity,
              'status', b.status, 'commander_id', b.commander_id, 'created_by', b.created_by, 'created_at', b.created_at,
              'updated_at', b.updated_at, 'components', jsonb_agg(distinct b.component_id)) as body
       from incidents_by_component b
      where b.component_id = any($1::uuid[]) and (b.created_at >= $2::timestamptz or b.updated_at >= $2::timestamptz)
      group by b.id, b.incident_id, b.title, b.type, b.severity, b.status, b.commander_id, b.created_by, b.created_at, b.updated_at
      order by b.created_at desc, b.id`,
    [ids, since],
  );
  return rows.rows.map((row) => row.body);
}

function readme(component: SnapshotTarget, options: SnapshotOptions, files: Record<string, string>): string {
  return [
    `# Snapshot of ${component.name}`,
    '',
    `A point-in-time export of the topology component ${component.name} (${component.id})` +
      `${component.topology_name === null ? '' : ` of the topology ${component.topology_name}`}: the component with everything under it` +
      `${options.related ? ', the components related to them' : ''}, and what was recorded about them in the range.`,
    '',
    `- Range: ${options.since.toISOString()} to ${options.now.toISOString()}`,
    `- Related components: ${options.related ? 'included' : 'not included'}`,
    `- Generated at: ${options.now.toISOString()}`,
    '',
    '## Files',
    '',
    ...Object.entries(files).map(([name, text]) => `- \`${name}\`: ${text}`),
    '',
    '## Left out',
    '',
    'Check specs (they may hold sealed credentials), the content of config items and the diffs of their changes (they may',
    'hold secret values) are not part of a snapshot. Lists keep the newest ' +
      `${SNAPSHOT_ROWS_PER_ITEM.toLocaleString('en')} statuses, changes and insights per check or config.`,
    '',
  ].join('\n');
}

function pretty(value: unknown): Uint8Array {
  return strToU8(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The snapshot of spec 001 §2.9: a zip of README.md and JSON files describing a component's subtree (and with
 * `related` the components linked to it) with its checks, configs and incidents over the range. Null when the
 * component is unknown or deleted.
 */
export async function buildTopologySnapshot(pool: pg.Pool, componentId: string, options: SnapshotOptions): Promise<TopologySnapshot | null> {
  const found = await pool.query<SnapshotTarget>(
    `select c.id, c.name, c.path, t.name as topology_name
       from components c left join topologies t on t.id = c.topology_id
      where c.id = $1 and c.deleted_at is null and t.deleted_at is null`,
    [componentId],
  );
  const component = found.rows[0];
  if (component === undefined) return null;
  const included = await loadComponents(pool, component, options.related);
  const checks = await loadChecks(pool, included.ids, options.since, options.now);
  const configs = await loadConfigs(pool, included.ids, options.since);
  const incidents = await loadIncidents(pool, included.ids, options.since);
  const files: Record<string, string> = {
    'components.json': `the component and its subtree, nested under \`components\`${options.related ? '; the related components under `related`' : ''}`,
    'checks.json': 'the checks linked to those components, each with its statuses in the range, newest first',
    'configs.json': 'the config items linked to those components, each with its changes and insights in the range, newest first',
    'incidents.json': 'the incidents with evidence on those components, created or updated in the range',
  };
  const components = options.related ? { component: included.root, related: included.related } : { component: included.root };
  const zip = zipSync({
    'README.md': strToU8(readme(component, options, files)),
    'components.json': pretty(components),
    'checks.json': pretty(checks),
    'configs.json': pretty(configs),
    'incidents.json': pretty(incidents),
  });
  return { topologyName: component.topology_name ?? component.name, zip };
}
