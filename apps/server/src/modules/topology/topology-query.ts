import type pg from 'pg';
import {
  COMPONENT_STATUSES,
  isComponentStatus,
  type ComponentCheckRef,
  type ComponentProperty,
  type ComponentStatus,
  type ComponentSummary,
  type ComponentTeamRef,
  type TopologyComponent,
  type TopologyComponentRow,
  type TopologyQuery,
  type TopologyResponse,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { SqlParams } from '../../platform/sql-params';

/** `GET /api/topology`'s query once checked: null means "no filter" (absent, empty or 'All'). */
export interface TopologyFilters {
  id: string | null;
  type: string | null;
  team: string | null;
  labels: Record<string, string> | null;
  statuses: ComponentStatus[] | null;
  /** 'local' keeps the components no agent reports (agent_id null); a uuid those of that agent. */
  agent: { local: true } | { local: false; id: string } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Spec 002 §7: the page sends 'All' for a filter it does not apply, which is the same as leaving it out. */
function present(value: string | undefined): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === 'All' ? null : trimmed;
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = at === -1 ? '' : pair.slice(0, at).trim();
    if (key === '') throw errors.validation(`/labels '${pair}' is not a key=value pair`);
    labels[key] = pair.slice(at + 1).trim();
  }
  return labels;
}

/** Checks the query of `GET /api/topology`; a value that cannot mean anything is a 400 naming its field. */
export function parseTopologyQuery(query: TopologyQuery): TopologyFilters {
  const id = present(query.id);
  if (id !== null && !isUuid(id)) throw errors.validation('/id must be a component uuid');
  const labelsText = present(query.labels);
  const labels = labelsText === null ? null : parseLabels(labelsText);
  const statusText = present(query.status);
  let statuses: ComponentStatus[] | null = null;
  if (statusText !== null) {
    const names = statusText.split(',').map((name) => name.trim()).filter((name) => name !== '' && name !== 'All');
    const unknown = names.filter((name) => !isComponentStatus(name));
    if (unknown.length > 0) throw errors.validation(`/status '${unknown.join(',')}' is not one of ${COMPONENT_STATUSES.join(', ')}`);
    statuses = names.length === 0 ? null : [...new Set(names.filter(isComponentStatus))];
  }
  const agentText = present(query.agent_id);
  let agent: TopologyFilters['agent'] = null;
  if (agentText !== null) {
    if (agentText === 'local') agent = { local: true };
    else if (isUuid(agentText)) agent = { local: false, id: agentText };
    else throw errors.validation('/agent_id must be an agent uuid or local');
  }
  return {
    id,
    type: present(query.type),
    team: present(query.team),
    labels: labels === null || Object.keys(labels).length === 0 ? null : labels,
    statuses,
    agent,
  };
}

/**
 * The live components another component selected (`selectors`, Mission Control's component_relationships: the
 * selected one is component_id, the selecting one relationship_id), as `components c` beside their link `r`. They are
 * listed among the selecting component's children, as Mission Control's topology tree lists them.
 */
function relatedChildrenJoin(parentId: string): string {
  return `join component_relationships r on r.relationship_id = ${parentId} and r.deleted_at is null
    join components c on c.id = r.component_id and c.deleted_at is null
    left join topologies rt on rt.id = c.topology_id and rt.deleted_at is not null`;
}

/** Unhealthy first, then warning, healthy, unknown (spec 001 §2.9); the caller adds the name as tie-break. */
function statusRankSql(status: string): string {
  return `case ${status} when 'unhealthy' then 0 when 'warning' then 1 when 'healthy' then 2 else 3 end`;
}

/**
 * CTEs that turn a `nodes (id, depth)` CTE into `component_rows`: each component's columns with `depth`, `rank` (see
 * statusRankSql), and its own `checks` and `teams` as JSON arrays, gathered set-wise for all nodes at once.
 */
export const COMPONENT_ROWS_CTES = `
check_refs as (
  select x.component_id,
         json_agg(json_build_object('id', x.id, 'name', x.name, 'icon', x.icon, 'type', x.type, 'status', x.status)
                  order by x.name, x.id) as checks
    from (select distinct l.component_id, k.id, k.name, k.icon, k.type, k.status
            from nodes n
            join check_component_relationships l on l.component_id = n.id and l.deleted_at is null
            join checks k on k.id = l.check_id and k.deleted_at is null) x
   group by x.component_id
),
team_refs as (
  select x.component_id, json_agg(json_build_object('id', x.id, 'name', x.name, 'icon', x.icon) order by x.name, x.id) as teams
    from (select distinct tc.component_id, t.id, t.name, t.icon
            from nodes n
            join team_components tc on tc.component_id = n.id
            join teams t on t.id = tc.team_id and t.deleted_at is null) x
   group by x.component_id
),
component_rows as (
  select c.*, n.depth, ${statusRankSql('c.status')} as rank, cr.checks, tr.teams
    from nodes n
    join components c on c.id = n.id
    left join check_refs cr on cr.component_id = c.id
    left join team_refs tr on tr.component_id = c.id
)`;

/**
 * The columns of `component_rows` a `TopologyComponent` is made of. `logs` is true when the component has its own log
 * selectors or a log backend's route matches it (migration 0100), as `components_with_logs` decides.
 */
export const COMPONENT_COLUMNS = `r.id, r.parent_id, r.depth, r.topology_id, r.path, r.name, r.text, r.type, r.icon,
  r.description, r.owner, r.lifecycle, r.namespace, r.status, r.status_reason, r.agent_id, r.external_id, r.is_leaf,
  r.hidden, r.labels, r.properties, r.summary, r.checks, r.teams,
  (r.log_selectors is not null or exists (select 1 from logging_backends_matching('component', r.type, r.name, r.labels))) as logs,
  r.cost_per_minute, r.cost_total_1d, r.cost_total_7d, r.cost_total_30d, r.created_at, r.updated_at, r.deleted_at`;

/**
 * A row of COMPONENT_COLUMNS as pg parses it (db/database.ts: numerics as numbers, timestamps as text): the component's
 * own fields, with its depth, and the json columns as stored (null, or a summary nothing has rolled up yet).
 */
export interface ComponentRow extends Omit<TopologyComponent, 'labels' | 'properties' | 'summary' | 'checks' | 'teams' | 'components'> {
  depth: number;
  labels: Record<string, string> | null;
  properties: ComponentProperty[] | null;
  summary: unknown;
  checks: ComponentCheckRef[] | null;
  teams: ComponentTeamRef[] | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The stored summary with zero counts for whatever is missing, so a component nothing has rolled up yet (`{}`) still has
 * the full shape.
 */
function completeSummary(summary: unknown): ComponentSummary {
  const stored = isRecord(summary) ? summary : {};
  const checks = isRecord(stored.checks) ? stored.checks : {};
  const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
  return {
    checks: { healthy: count(checks.healthy), unhealthy: count(checks.unhealthy), warning: count(checks.warning), unknown: count(checks.unknown) },
    incidents: (isRecord(stored.incidents) ? stored.incidents : {}) as ComponentSummary['incidents'],
    insights: (isRecord(stored.insights) ? stored.insights : {}) as ComponentSummary['insights'],
  };
}

/** A row of COMPONENT_COLUMNS as `TopologyComponent`, without `components`. */
export function componentFromRow(row: ComponentRow): TopologyComponent {
  return {
    id: row.id,
    topology_id: row.topology_id,
    parent_id: row.parent_id,
    path: row.path,
    name: row.name,
    text: row.text,
    type: row.type,
    icon: row.icon,
    description: row.description,
    owner: row.owner,
    lifecycle: row.lifecycle,
    namespace: row.namespace,
    status: row.status,
    status_reason: row.status_reason,
    agent_id: row.agent_id,
    external_id: row.external_id,
    is_leaf: row.is_leaf,
    hidden: row.hidden,
    labels: row.labels ?? {},
    properties: row.properties ?? [],
    summary: completeSummary(row.summary),
    checks: row.checks ?? [],
    teams: row.teams ?? [],
    logs: row.logs,
    cost_per_minute: row.cost_per_minute,
    cost_total_1d: row.cost_total_1d,
    cost_total_7d: row.cost_total_7d,
    cost_total_30d: row.cost_total_30d,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}

function filterConditions(filters: TopologyFilters, params: SqlParams): string {
  const conditions = ['true'];
  if (filters.type !== null) conditions.push(`l.type = ${params.add(filters.type, 'text')}`);
  if (filters.team !== null) {
    conditions.push(`exists (select 1 from team_components tc join teams t on t.id = tc.team_id and t.deleted_at is null
                              where tc.component_id = l.id and t.name = ${params.add(filters.team, 'text')})`);
  }
  if (filters.labels !== null) conditions.push(`l.labels @> ${params.add(JSON.stringify(filters.labels), 'jsonb')}`);
  if (filters.statuses !== null) conditions.push(`l.status = any(${params.add(filters.statuses, 'text[]')})`);
  if (filters.agent !== null) {
    conditions.push(filters.agent.local ? 'l.agent_id is null' : `l.agent_id = ${params.add(filters.agent.id, 'uuid')}`);
  }
  return conditions.join(' and ');
}

/**
 * The card level: the roots of live topologies without an id, the live children of the component with one (whose
 * topology must be live too). `anchor` is that component. Without an id, a type filter reaches every depth (spec 001
 * §7: `type` returns components): a component's Type link, /topology?type=Service, lists every Service, not only the
 * roots of that type (#34 item 25).
 */
function levelSql(filters: TopologyFilters, params: SqlParams, everyDepth = false): string {
  return filters.id === null
    ? `level as (select c.id, c.type, c.labels, c.status, c.agent_id
                   from components c join topologies t on t.id = c.topology_id
                  where ${everyDepth ? '' : 'c.parent_id is null and '}c.deleted_at is null and t.deleted_at is null)`
    : `anchor as (select c.id from components c left join topologies t on t.id = c.topology_id
                   where c.id = ${params.add(filters.id, 'uuid')} and c.deleted_at is null and t.deleted_at is null),
       level as (select c.id, c.type, c.labels, c.status, c.agent_id
                   from components c join anchor a on c.parent_id = a.id where c.deleted_at is null
                 union
                 select c.id, c.type, c.labels, c.status, c.agent_id
                   from anchor a ${relatedChildrenJoin('a.id')} where rt.id is null)`;
}

/**
 * healthStatuses, tags, teams and types of the unfiltered card level, as a JSON object. Without an id the types are
 * those of every live component, as a type filter there reaches every depth.
 */
function facetsSql(filters: TopologyFilters, params: SqlParams): string {
  const typed = filters.id === null ? 'every_component' : 'level';
  return `
with ${levelSql(filters, params)}${filters.id === null ? `, ${levelSql(filters, params, true).replace(/^level as/, 'every_component as')}` : ''}
select json_build_object(
  'healthStatuses', (select coalesce(json_agg(s.status order by ${statusRankSql('s.status')}), '[]'::json)
                       from (select distinct l.status from level l) s),
  'tags', (select coalesce(json_object_agg(k.key, k.vals order by k.key), '{}'::json)
             from (select e.key, json_agg(distinct e.value order by e.value) as vals
                     from level l, jsonb_each_text(l.labels) e
                    where jsonb_typeof(l.labels) = 'object'
                    group by e.key) k),
  'teams', (select coalesce(json_agg(distinct t.name order by t.name), '[]'::json)
              from level l join team_components tc on tc.component_id = l.id
              join teams t on t.id = tc.team_id and t.deleted_at is null),
  'types', (select coalesce(json_agg(distinct l.type order by l.type), '[]'::json) from ${typed} l where l.type is not null)
) as body`;
}

type TopologyFacets = Omit<TopologyResponse, 'components'>;

/** The card level after the filters. */
function cardsSql(filters: TopologyFilters, params: SqlParams): string {
  return `${levelSql(filters, params, filters.type !== null)},
cards as (select l.id from level l where ${filterConditions(filters, params)})`;
}

/**
 * The whole components of the answer, one row each, in card order: the cards (depth 2), and with an id the component
 * itself (depth 1) first.
 */
function wholeComponentsSql(filters: TopologyFilters, params: SqlParams): string {
  const nodes =
    filters.id === null
      ? 'nodes as (select id, 2 as depth from cards)'
      : 'nodes as (select id, 1 as depth from anchor union all select id, 2 from cards)';
  return `
with ${cardsSql(filters, params)},
${nodes},
${COMPONENT_ROWS_CTES}
select ${COMPONENT_COLUMNS}
  from component_rows r
 order by r.depth, r.rank, r.name, r.id`;
}

/** A card's child row with the card it is listed under: its parent, or the component that selected it. */
interface ChildRow extends TopologyComponentRow {
  card_id: string;
}

/** The cards' live children as rows (TopologyComponentRow), with the components each selected, in the order each card lists them. */
function childRowsSql(filters: TopologyFilters, params: SqlParams): string {
  const columns = 'c.id, c.parent_id, c.path, c.name, c.icon, c.type, c.status, c.status_reason, c.hidden, c.is_leaf, k.id as card_id';
  return `
with ${cardsSql(filters, params)}
select x.* from (
  select ${columns}
    from components c
    join cards k on c.parent_id = k.id
   where c.deleted_at is null
  union
  select ${columns}
    from cards k ${relatedChildrenJoin('k.id')}
   where rt.id is null) x
 order by ${statusRankSql('x.status')}, x.name, x.id`;
}

/** Puts each card's rows under it, and with an id the cards under the component asked for. */
function nestComponents(wholeRows: ComponentRow[], childRows: ChildRow[]): TopologyComponent[] {
  const rowsByParent = new Map<string, TopologyComponentRow[]>();
  for (const { card_id: cardId, ...row } of childRows) {
    const siblings = rowsByParent.get(cardId);
    if (siblings === undefined) rowsByParent.set(cardId, [row]);
    else siblings.push(row);
  }
  const anchor = wholeRows.find((row) => row.depth === 1);
  const cards = wholeRows.filter((row) => row.depth === 2).map((row) => ({ ...componentFromRow(row), components: rowsByParent.get(row.id) ?? [] }));
  return anchor === undefined ? cards : [{ ...componentFromRow(anchor), components: cards }];
}

/**
 * `GET /api/topology` as JSON text, ready to send: the route hands it out as it is, past a schema serializer that
 * would walk thousands of components. Each component is a plain row made into an object here, which costs the embedded
 * database far less than building the JSON inside it. An unknown or deleted id answers no components, which the page
 * shows as its empty state.
 */
export async function loadTopologyJson(pool: pg.Pool, filters: TopologyFilters): Promise<string> {
  const facetParams = new SqlParams();
  const facets = facetsSql(filters, facetParams);
  const wholeParams = new SqlParams();
  const whole = wholeComponentsSql(filters, wholeParams);
  const rowParams = new SqlParams();
  const rows = childRowsSql(filters, rowParams);
  const client = await pool.connect();
  try {
    // One snapshot for both statements; the planner overestimates the CTEs, and past the JIT threshold compiling the
    // plan would cost more than running it.
    await client.query('begin isolation level repeatable read read only; set local jit = off');
    const facetRow = await client.query<{ body: TopologyFacets }>(facets, facetParams.values);
    const wholeRows = await client.query<ComponentRow>(whole, wholeParams.values);
    const childRows = await client.query<ChildRow>(rows, rowParams.values);
    await client.query('commit');
    const answer: TopologyResponse = {
      components: nestComponents(wholeRows.rows, childRows.rows),
      ...(facetRow.rows[0]?.body ?? { healthStatuses: [], tags: {}, teams: [], types: [] }),
    };
    return JSON.stringify(answer);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
