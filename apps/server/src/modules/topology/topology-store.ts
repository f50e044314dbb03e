import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  TOPOLOGY_BUILD_SETTING,
  type BuiltTopology,
  type CheckRow,
  type CheckSelector,
  type ComponentDraft,
  type ComponentSelector,
  type ConfigRow,
  type ConfigSelector,
  type TopologyRow,
  type TopologySources,
} from './types';
import { inlineSource } from './inline-canaries';
import { evaluateStatusExpr, type StatusNode } from './status-expr';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * One selector never hands the builder more rows than a whole tree may hold (build-tree stops at 5,000 components):
 * a selector as wide as "every pod" costs one bounded query, not the catalog.
 */
export const MAX_SOURCE_ROWS = 5000;
/** The selector_id prefix of the links a run makes, so a run removes only its own and never a user's ('manual'). */
export const TOPOLOGY_LINK_PREFIX = 'topology:';
/** The selector_id of the team links a run makes from `owner`. */
export const TOPOLOGY_OWNER_SELECTOR = 'topology';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `a=b,c=d` → {a: b, c: d}; a bare `a` asks only that the key exists. */
export function parseLabelSelector(selector: string): { equal: Record<string, string>; exists: string[] } {
  const equal: Record<string, string> = {};
  const exists: string[] = [];
  for (const part of selector.split(',')) {
    const pair = part.trim();
    if (pair === '') continue;
    const at = pair.indexOf('=');
    if (at < 0) exists.push(pair);
    else equal[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return { equal, exists };
}

function nonEmpty<T>(values: readonly T[] | undefined): values is readonly T[] {
  return values !== undefined && values.length > 0;
}

function hasKeys(value: Record<string, string> | undefined): value is Record<string, string> {
  return value !== undefined && Object.keys(value).length > 0;
}

/**
 * Catalog items as a selector names them: not deleted, by id, name, namespace (the `namespace` tag), types, and tags
 * and labels by jsonb containment, which the GIN indexes on both serve. A selector that names nothing matches nothing:
 * the whole catalog is never what a spec means.
 */
/**
 * A catalog selector as the bound values of CONFIG_FILTER ($1 to $5), the namespace folded into the tags; null when it
 * can match nothing (ids that are not uuids, two namespaces) or names nothing.
 */
function configFilter(selector: ConfigSelector): unknown[] | null {
  const tags: Record<string, string> = { ...selector.tags };
  if (selector.namespace !== undefined) {
    if (tags.namespace !== undefined && tags.namespace !== selector.namespace) return null;
    tags.namespace = selector.namespace;
  }
  const ids = selector.id?.filter((id) => UUID.test(id));
  if (selector.id !== undefined && selector.id.length > 0 && ids?.length === 0) return null;
  if (!nonEmpty(ids) && selector.name === undefined && !nonEmpty(selector.types) && !hasKeys(tags) && !hasKeys(selector.labels)) return null;
  return [
    nonEmpty(ids) ? ids : null,
    selector.name ?? null,
    nonEmpty(selector.types) ? selector.types : null,
    hasKeys(tags) ? JSON.stringify(tags) : null,
    hasKeys(selector.labels) ? JSON.stringify(selector.labels) : null,
  ];
}

const CONFIG_FILTER = `($1::uuid[] is null or id = any ($1::uuid[]))
        and ($2::text is null or name = $2)
        and ($3::text[] is null or type = any ($3::text[]))
        and ($4::jsonb is null or tags @> $4::jsonb)
        and ($5::jsonb is null or labels @> $5::jsonb)`;

export async function findConfigs(db: Queryable, selector: ConfigSelector): Promise<ConfigRow[]> {
  const filter = configFilter(selector);
  if (filter === null) return [];
  const result = await db.query<ConfigRow>(
    `select id, name, type, config_class, health, status, tags, labels, config, description, ready, external_id, agent_id, scraper_id,
            parent_id, path, properties, source, to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at
       from config_items
      where deleted_at is null and ${CONFIG_FILTER}
      order by name, id
      limit $6`,
    [...filter, MAX_SOURCE_ROWS],
  );
  return result.rows;
}

/**
 * The distinct values of `tag` on live catalog items (canary-checker's groupBy), among those the selector matches
 * when one is given, in order; an item without the tag gives none.
 */
export async function findTagValues(db: Queryable, tag: string, selector: ConfigSelector | null, classes: readonly string[] | null): Promise<string[]> {
  const filter = selector === null ? [null, null, null, null, null] : configFilter(selector);
  if (filter === null) return [];
  const result = await db.query<{ value: string }>(
    `select distinct tags ->> $6 as value from config_items
      where deleted_at is null and jsonb_typeof(tags -> $6) = 'string' and ${CONFIG_FILTER}
        and ($7::text[] is null or config_class = any ($7::text[]))
      order by 1
      limit $8`,
    [...filter, tag, classes, MAX_SOURCE_ROWS],
  );
  return result.rows.map((row) => row.value);
}

/** Canary checks as a selector names them: not deleted, by name, namespace, labels (`a=b,c=d`) and types. */
export async function findChecks(db: Queryable, selector: CheckSelector, topologyId?: string): Promise<CheckRow[]> {
  if (selector.inline !== undefined) {
    if (topologyId === undefined) return [];
    const owned = await db.query<CheckRow>(
      `select k.id, k.canary_id, k.name from checks k join canaries c on c.id = k.canary_id
        where k.deleted_at is null and c.deleted_at is null and c.source = $1
        order by k.name, k.id limit $2`,
      [inlineSource(topologyId, selector.inline.key), MAX_SOURCE_ROWS],
    );
    return owned.rows;
  }
  const labels = parseLabelSelector(selector.labelSelector ?? '');
  const hasLabels = hasKeys(labels.equal) || labels.exists.length > 0;
  if (selector.name === undefined && selector.namespace === undefined && !hasLabels && !nonEmpty(selector.types)) return [];
  const result = await db.query<CheckRow>(
    `select id, canary_id, name from checks
      where deleted_at is null
        and ($1::text is null or name = $1)
        and ($2::text is null or namespace = $2)
        and ($3::jsonb is null or labels @> $3::jsonb)
        and ($4::text[] is null or labels ?& $4::text[])
        and ($5::text[] is null or type = any ($5::text[]))
      order by name, id
      limit $6`,
    [
      selector.name ?? null,
      selector.namespace ?? null,
      hasKeys(labels.equal) ? JSON.stringify(labels.equal) : null,
      labels.exists.length > 0 ? labels.exists : null,
      nonEmpty(selector.types) ? selector.types : null,
      MAX_SOURCE_ROWS,
    ],
  );
  return result.rows;
}

/**
 * The live components a component selector names, as Mission Control's resource selector reads them (an empty agent
 * is this server's own components), leaving out `exclude`: the selecting component and its ancestors, which listed
 * under it would make a loop. Components of a deleted topology are gone too.
 */
export async function findComponents(db: Queryable, selector: ComponentSelector, exclude: readonly string[]): Promise<string[]> {
  const ids = selector.id?.filter((id) => UUID.test(id));
  if (selector.id !== undefined && selector.id.length > 0 && ids?.length === 0) return [];
  const labels = parseLabelSelector(selector.labelSelector ?? '');
  const hasLabels = hasKeys(labels.equal) || labels.exists.length > 0;
  if (!nonEmpty(ids) && selector.name === undefined && selector.namespace === undefined && !nonEmpty(selector.types) && !nonEmpty(selector.statuses) && !hasLabels) return [];
  const result = await db.query<{ id: string }>(
    `select c.id from components c left join topologies t on t.id = c.topology_id
      where c.deleted_at is null and t.deleted_at is null
        and ($1::uuid[] is null or c.id = any ($1::uuid[]))
        and ($2::text is null or c.name = $2)
        and ($3::text is null or c.namespace = $3)
        and ($4::text[] is null or c.type = any ($4::text[]))
        and ($5::text[] is null or c.status = any ($5::text[]))
        and ($6::jsonb is null or c.labels @> $6::jsonb)
        and ($7::text[] is null or c.labels ?& $7::text[])
        and ($8::boolean or c.agent_id is not distinct from $9::uuid)
        and c.id <> all ($10::uuid[])
      order by c.name, c.id
      limit $11`,
    [
      nonEmpty(ids) ? ids : null,
      selector.name ?? null,
      selector.namespace ?? null,
      nonEmpty(selector.types) ? selector.types : null,
      nonEmpty(selector.statuses) ? selector.statuses : null,
      hasKeys(labels.equal) ? JSON.stringify(labels.equal) : null,
      labels.exists.length > 0 ? labels.exists : null,
      selector.agent === null,
      selector.agent ?? null,
      exclude,
      MAX_SOURCE_ROWS,
    ],
  );
  return result.rows.map((row) => row.id);
}

/** The sources a build reads (the topology's own inline canaries by its id), on one connection (the pool, or the seed's client inside its transaction). */
export function topologySources(db: Queryable, topologyId?: string): TopologySources {
  return {
    findConfigs: (selector) => findConfigs(db, selector),
    findChecks: (selector) => findChecks(db, selector, topologyId),
    findTagValues: (tag, selector, classes) => findTagValues(db, tag, selector, classes),
  };
}

/** What a run did to the stored components; `stored` counts the components the tree holds now. */
export interface StoreSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  stored: number;
}

interface Placed {
  id: string;
  parentId: string | null;
  depth: number;
  draft: ComponentDraft;
}

interface StoredRef {
  id: string;
  external_id: string;
  deleted: boolean;
}

/**
 * The trees (one, or one per groupBy value) in parent-before-child order, each with its stored id (or a new one). A
 * key met twice keeps its first component; the second and what is under it are reported, since a key must name one
 * component.
 */
function place(roots: readonly ComponentDraft[], stored: ReadonlyMap<string, StoredRef>, errors: string[]): Placed[] {
  const placed: Placed[] = [];
  const seen = new Set<string>();
  const visit = (draft: ComponentDraft, parentId: string | null, depth: number): void => {
    if (seen.has(draft.key)) {
      errors.push(`component '${draft.name}' has the key '${draft.key}' of another component and was left out with its children`);
      return;
    }
    seen.add(draft.key);
    const id = stored.get(draft.key)?.id ?? randomUUID();
    placed.push({ id, parentId, depth, draft });
    for (const child of draft.children) visit(child, id, depth + 1);
  };
  for (const root of roots) visit(root, null, 0);
  return placed;
}

function componentRecord(topology: TopologyRow, component: Placed): Record<string, unknown> {
  const { draft } = component;
  return {
    id: component.id,
    parent_id: component.parentId,
    external_id: draft.key,
    name: draft.name,
    text: draft.text ?? null,
    type: draft.type ?? null,
    icon: draft.icon ?? null,
    description: draft.description ?? null,
    owner: draft.owner ?? null,
    lifecycle: draft.lifecycle ?? null,
    namespace: draft.namespace ?? null,
    hidden: draft.hidden,
    labels: draft.labels,
    properties: draft.properties,
    is_leaf: draft.children.length === 0 && draft.selectors.length === 0,
    agent_id: topology.agent_id,
    status_expr: draft.statusExpr ?? null,
  };
}

const RECORD_COLUMNS = `id uuid, parent_id uuid, external_id text, name text, text text, type text, icon text, description text, owner text,
  lifecycle text, namespace text, hidden boolean, labels jsonb, properties jsonb, is_leaf boolean, agent_id uuid, status_expr text`;

async function insertComponents(client: Queryable, topologyId: string, records: Record<string, unknown>[]): Promise<void> {
  if (records.length === 0) return;
  await client.query(
    `insert into components (id, topology_id, parent_id, external_id, name, text, type, icon, description, owner, lifecycle, namespace,
                             hidden, labels, properties, is_leaf, agent_id, status_expr)
     select x.id, $1, x.parent_id, x.external_id, x.name, x.text, x.type, x.icon, x.description, x.owner, x.lifecycle, x.namespace,
            x.hidden, x.labels, x.properties, x.is_leaf, x.agent_id, x.status_expr
       from jsonb_to_recordset($2::jsonb) as x(${RECORD_COLUMNS})`,
    [topologyId, JSON.stringify(records)],
  );
}

/** Writes only the components that differ from what the build made (a deleted one that came back differs). */
async function updateComponents(client: Queryable, topologyId: string, records: Record<string, unknown>[]): Promise<number> {
  if (records.length === 0) return 0;
  const result = await client.query(
    `update components c
        set parent_id = x.parent_id, name = x.name, text = x.text, type = x.type, icon = x.icon, description = x.description,
            owner = x.owner, lifecycle = x.lifecycle, namespace = x.namespace, hidden = x.hidden, labels = x.labels,
            properties = x.properties, is_leaf = x.is_leaf, agent_id = x.agent_id, status_expr = x.status_expr, deleted_at = null
       from jsonb_to_recordset($2::jsonb) as x(${RECORD_COLUMNS})
      where c.id = x.id and c.topology_id = $1
        and (c.parent_id, c.name, c.text, c.type, c.icon, c.description, c.owner, c.lifecycle, c.namespace, c.hidden, c.labels,
             c.properties, c.is_leaf, c.agent_id, c.status_expr, c.deleted_at)
            is distinct from
            (x.parent_id, x.name, x.text, x.type, x.icon, x.description, x.owner, x.lifecycle, x.namespace, x.hidden, x.labels,
             x.properties, x.is_leaf, x.agent_id, x.status_expr, null::timestamptz)`,
    [topologyId, JSON.stringify(records)],
  );
  return result.rowCount ?? 0;
}

/** One link a run makes: component → check, config item, team or selected component. `extra` is the check's canary. */
interface Link {
  componentId: string;
  targetId: string;
  selectorId: string;
  extra: string | null;
}

interface StoredLink {
  component_id: string;
  target_id: string;
  selector_id: string;
  extra: string | null;
  deleted: boolean;
}

/**
 * The tables a run links components through. Identifiers come from here only. `component` is the column holding the
 * topology's own component: a selected component is the link's component_id and the selecting one its relationship_id,
 * as Mission Control writes them. `extra` is a column the link carries and a run keeps current (a check's canary);
 * `deletedAt` says whether the table soft-deletes.
 */
const LINK_TABLES = {
  checks: { table: 'check_component_relationships', component: 'component_id', target: 'check_id', targets: 'checks', extra: 'canary_id', deletedAt: true },
  configs: { table: 'config_component_relationships', component: 'component_id', target: 'config_id', targets: 'config_items', extra: null, deletedAt: true },
  teams: { table: 'team_components', component: 'component_id', target: 'team_id', targets: 'teams', extra: null, deletedAt: false },
  components: { table: 'component_relationships', component: 'relationship_id', target: 'component_id', targets: 'components', extra: null, deletedAt: true },
} as const;

type LinkKind = keyof typeof LINK_TABLES;

function linkKey(componentId: string, targetId: string, selectorId: string): string {
  return `${componentId}/${targetId}/${selectorId}`;
}

/** The checks, configs and owning teams the build attached; the first selector to find a pair names it. */
async function wantedLinks(client: Queryable, placed: readonly Placed[]): Promise<Record<LinkKind, Map<string, Link>>> {
  const wanted: Record<LinkKind, Map<string, Link>> = { checks: new Map(), configs: new Map(), teams: new Map(), components: new Map() };
  const add = (kind: LinkKind, link: Link): void => {
    const key = linkKey(link.componentId, link.targetId, link.selectorId);
    if (!wanted[kind].has(key)) wanted[kind].set(key, link);
  };
  const owners = [...new Set(placed.flatMap(({ draft }) => (draft.owner === undefined || draft.owner.trim() === '' ? [] : [draft.owner.trim()])))];
  const teams = new Map<string, string[]>();
  if (owners.length > 0) {
    const found = await client.query<{ id: string; name: string }>('select id, name from teams where name = any ($1::text[]) and deleted_at is null', [owners]);
    for (const team of found.rows) teams.set(team.name, [...(teams.get(team.name) ?? []), team.id]);
  }
  for (const { id, draft } of placed) {
    for (const check of draft.checks) {
      add('checks', { componentId: id, targetId: check.checkId, selectorId: `${TOPOLOGY_LINK_PREFIX}${check.selectorId}`, extra: check.canaryId });
    }
    for (const config of draft.configs) {
      add('configs', { componentId: id, targetId: config.configId, selectorId: `${TOPOLOGY_LINK_PREFIX}${config.selectorId}`, extra: null });
    }
    for (const teamId of teams.get(draft.owner?.trim() ?? '') ?? []) {
      add('teams', { componentId: id, targetId: teamId, selectorId: TOPOLOGY_OWNER_SELECTOR, extra: null });
    }
    if (draft.selectors.length > 0) {
      const exclude = [id, ...ancestorsOf(placed, id)];
      for (const { selector, selectorId } of draft.selectors) {
        for (const targetId of await findComponents(client, selector, exclude)) {
          add('components', { componentId: id, targetId, selectorId: `${TOPOLOGY_LINK_PREFIX}${selectorId}`, extra: null });
        }
      }
    }
  }
  return wanted;
}

/** The ids above a placed component, up to the root. */
function ancestorsOf(placed: readonly Placed[], id: string): string[] {
  const parents = new Map(placed.map((component) => [component.id, component.parentId]));
  const ancestors: string[] = [];
  for (let parent = parents.get(id) ?? null; parent !== null; parent = parents.get(parent) ?? null) ancestors.push(parent);
  return ancestors;
}

function columns(links: readonly Link[]): [string[], string[], string[], (string | null)[]] {
  return [links.map((link) => link.componentId), links.map((link) => link.targetId), links.map((link) => link.selectorId), links.map((link) => link.extra)];
}

/**
 * Makes one link table hold what the build wants of the run's own links, comparing them here so that each statement
 * touches only the rows that change: the run's links the build no longer makes removed, new ones inserted, returning
 * ones undeleted. Links of other origins ('manual' ones users made, the demo's) are never read nor touched. A target
 * deleted since the build is skipped rather than failing the run on its foreign key.
 */
async function syncLinks(client: Queryable, topologyId: string, kind: LinkKind, wanted: ReadonlyMap<string, Link>): Promise<void> {
  const spec = LINK_TABLES[kind];
  const extra = spec.extra === null ? 'null::uuid' : `r.${spec.extra}`;
  const deleted = spec.deletedAt ? 'r.deleted_at is not null' : 'false';
  const own = kind === 'teams' ? 'r.selector_id = $2' : 'starts_with(r.selector_id, $2)';
  const stored = await client.query<StoredLink>(
    `select r.${spec.component} as component_id, r.${spec.target} as target_id, r.selector_id, ${extra} as extra, ${deleted} as deleted
       from ${spec.table} r join components c on c.id = r.${spec.component}
      where c.topology_id = $1 and ${own}`,
    [topologyId, kind === 'teams' ? TOPOLOGY_OWNER_SELECTOR : TOPOLOGY_LINK_PREFIX],
  );
  const have = new Map(stored.rows.map((row) => [linkKey(row.component_id, row.target_id, row.selector_id), row]));
  const stale = stored.rows
    .filter((row) => !wanted.has(linkKey(row.component_id, row.target_id, row.selector_id)))
    .map((row) => ({ componentId: row.component_id, targetId: row.target_id, selectorId: row.selector_id, extra: row.extra }));
  const missing = [...wanted].filter(([key]) => !have.has(key)).map(([, link]) => link);
  const changed = [...wanted].flatMap(([key, link]) => {
    const row = have.get(key);
    return row !== undefined && (row.deleted || row.extra !== link.extra) ? [link] : [];
  });
  const match = `r.${spec.component} = x.component_id and r.${spec.target} = x.target_id and r.selector_id = x.selector_id`;
  const unnest = 'unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[]) as x(component_id, target_id, selector_id, extra)';
  if (stale.length > 0) await client.query(`delete from ${spec.table} r using ${unnest} where ${match}`, columns(stale));
  if (missing.length > 0) {
    await client.query(
      `insert into ${spec.table} (${spec.component}, ${spec.target}, selector_id${spec.extra === null ? '' : `, ${spec.extra}`})
       select x.component_id, x.target_id, x.selector_id${spec.extra === null ? '' : ', x.extra'}
         from ${unnest} join ${spec.targets} t on t.id = x.target_id
       on conflict do nothing`,
      columns(missing),
    );
  }
  const sets = [...(spec.deletedAt ? ['deleted_at = null'] : []), ...(spec.extra === null ? [] : [`${spec.extra} = x.extra`])];
  if (changed.length > 0 && sets.length > 0) {
    await client.query(`update ${spec.table} r set ${sets.join(', ')} from ${unnest} where ${match}`, columns(changed));
  }
}

async function storeLinks(client: Queryable, topologyId: string, placed: readonly Placed[]): Promise<void> {
  const wanted = await wantedLinks(client, placed);
  for (const kind of Object.keys(LINK_TABLES) as LinkKind[]) await syncLinks(client, topologyId, kind, wanted[kind]);
}

/**
 * Sets the status of every component with a statusExpr from its summary as the refresh left it, the deepest first so
 * that an expression above reads the statuses the ones below gave. An answer that is not a status leaves it unknown
 * and the run says so.
 */
async function applyStatusExpressions(client: Queryable, placed: readonly Placed[], errors: string[]): Promise<void> {
  const rows = await client.query<{ id: string; status: string; status_reason: string | null; summary: unknown }>(
    'select id, status, status_reason, summary from components where id = any ($1::uuid[])',
    [placed.map((component) => component.id)],
  );
  const stored = new Map(rows.rows.map((row) => [row.id, row]));
  const nodes = new Map<string, StatusNode>();
  for (const { id, draft } of placed) {
    const row = stored.get(id);
    nodes.set(id, { name: draft.name, status: row?.status ?? 'unknown', summary: row?.summary ?? {}, statusExpr: draft.statusExpr ?? null, children: [] });
  }
  for (const { id, parentId } of placed) {
    const node = nodes.get(id);
    if (parentId !== null && node !== undefined) nodes.get(parentId)?.children.push(node);
  }
  const changed: Array<{ id: string; status: string; reason: string | null }> = [];
  for (const { id, draft } of [...placed].sort((a, b) => b.depth - a.depth)) {
    const node = nodes.get(id);
    if (node === undefined || draft.statusExpr === undefined) continue;
    const { status, problem } = evaluateStatusExpr(node, draft.statusExpr);
    if (problem !== null) errors.push(problem);
    // The rollup's reason names checks and children the expression may not have followed: it goes, unless a lookup's
    // display gave the reason with the status.
    const reason = problem === null ? (draft.statusReason ?? null) : null;
    if (status !== node.status || (stored.get(id)?.status_reason ?? null) !== reason) changed.push({ id, status, reason });
    node.status = status;
  }
  if (changed.length === 0) return;
  await client.query(
    `update components c set status = x.status, status_reason = x.reason
       from unnest($1::uuid[], $2::text[], $3::text[]) as x(id, status, reason) where c.id = x.id`,
    [changed.map((entry) => entry.id), changed.map((entry) => entry.status), changed.map((entry) => entry.reason)],
  );
}

/**
 * Stores what a build made, on a client inside a transaction the caller holds: every built component matched by key
 * to its stored row (inserted when new, written only when it changed, brought back when it returns), the stored ones
 * the build no longer makes soft-deleted, the links made to match, and then status and summary recomputed once for
 * the whole tree. `errors` receives what could not be stored as built.
 */
export async function storeTopology(client: Queryable, topology: TopologyRow, built: BuiltTopology, errors: string[]): Promise<StoreSummary> {
  // The rollup triggers stand aside while the tree is written; topology_refresh_tree recomputes it once at the end.
  // The links are the run's own, not a person's (a seed may be acting as one on its session).
  const previous = await client.query<{ build: string | null; person: string | null }>(
    `select current_setting($1, true) as build, current_setting('opsdeck.person_id', true) as person`,
    [TOPOLOGY_BUILD_SETTING],
  );
  await client.query(`select set_config($1, 'on', true), set_config('opsdeck.person_id', '', true)`, [TOPOLOGY_BUILD_SETTING]);
  const rows = await client.query<StoredRef>(
    `select id, external_id, deleted_at is not null as deleted from components
      where topology_id = $1 and external_id is not null
      order by deleted_at is not null, deleted_at desc`,
    [topology.id],
  );
  const stored = new Map<string, StoredRef>();
  for (const row of rows.rows) if (!stored.has(row.external_id)) stored.set(row.external_id, row);

  const placed = place(built.roots, stored, errors);
  const fresh = placed.filter((component) => !stored.has(component.draft.key));
  const deepest = Math.max(0, ...fresh.map((component) => component.depth));
  // Level by level: each insert derives its path from its parent's row, which must be there already.
  for (let depth = 0; depth <= deepest; depth += 1) {
    await insertComponents(
      client,
      topology.id,
      fresh.filter((component) => component.depth === depth).map((component) => componentRecord(topology, component)),
    );
  }
  const kept = placed.filter((component) => stored.has(component.draft.key));
  const restored = kept.filter((component) => stored.get(component.draft.key)?.deleted === true).length;
  const written = await updateComponents(
    client,
    topology.id,
    kept.map((component) => componentRecord(topology, component)),
  );
  // Only what runs made (they key it by external_id): a component someone added by hand is theirs to remove.
  const removed = await client.query(
    `update components set deleted_at = now()
      where topology_id = $1 and deleted_at is null and external_id is not null and id <> all ($2::uuid[])`,
    [topology.id, placed.map((component) => component.id)],
  );
  await storeLinks(client, topology.id, placed);
  await client.query('select topology_refresh_tree($1)', [topology.id]);
  if (placed.some((component) => component.draft.statusExpr !== undefined)) {
    await applyStatusExpressions(client, placed, errors);
    // The statuses the expressions gave roll up into the components above them.
    await client.query('select topology_refresh_tree($1)', [topology.id]);
  }
  // A caller's transaction that goes on after the store (the demo seed's) gets its triggers and its person back.
  await client.query(`select set_config($1, $2, true), set_config('opsdeck.person_id', $3, true)`, [
    TOPOLOGY_BUILD_SETTING,
    previous.rows[0]?.build ?? '',
    previous.rows[0]?.person ?? '',
  ]);
  return {
    added: fresh.length + restored,
    updated: written - restored,
    unchanged: kept.length - written,
    deleted: removed.rowCount ?? 0,
    stored: placed.length,
  };
}
