import type pg from 'pg';
import type { PlaybookResourceSelector, PlaybookSpec, PlaybookTargetType } from '@opsdeck/shared';
import type { PlaybookTarget } from './types';

type Queryable = Pick<pg.PoolClient, 'query'>;

/** One requirement of a `tagSelector` or `labelSelector`, in the Kubernetes label-selector grammar. */
export type SelectorRequirement =
  | { key: string; op: 'exists' | 'absent' }
  | { key: string; op: 'equals' | 'differs'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] };

const KEY = /^[A-Za-z0-9]([A-Za-z0-9_./-]*[A-Za-z0-9])?$/;
const SET = /^(\S+)\s+(in|notin)\s*\((.*)\)$/;
const COMPARISON = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits at the commas outside parentheses, so `env in (a,b),app=web` is two requirements. */
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim());
}

function requirementOf(part: string): SelectorRequirement | string {
  const set = SET.exec(part);
  if (set !== null) {
    const key = set[1] ?? '';
    const values = (set[3] ?? '').split(',').map((value) => value.trim());
    if (!KEY.test(key)) return `'${key}' is not a key`;
    if (values.some((value) => value === '')) return `'${part}' lists an empty value`;
    return { key, op: set[2] === 'in' ? 'in' : 'notin', values };
  }
  const comparison = COMPARISON.exec(part);
  if (comparison !== null) {
    const key = (comparison[1] ?? '').trim();
    if (!KEY.test(key)) return `'${key}' is not a key`;
    return { key, op: comparison[2] === '!=' ? 'differs' : 'equals', value: (comparison[3] ?? '').trim() };
  }
  const absent = part.startsWith('!');
  const key = absent ? part.slice(1).trim() : part;
  if (!KEY.test(key)) return `'${part}' is not a requirement`;
  return { key, op: absent ? 'absent' : 'exists' };
}

/**
 * `app=web,env!=dev,tier,!canary,zone in (a,b),size notin (xl)` as requirements; the problem as text when it does not
 * parse, so the spec parser can name the field.
 */
export function parseSelectorRequirements(text: string): SelectorRequirement[] | string {
  if (text.trim() === '') return [];
  const requirements: SelectorRequirement[] = [];
  for (const part of splitRequirements(text)) {
    if (part === '') return 'has an empty requirement between commas';
    const requirement = requirementOf(part);
    if (typeof requirement === 'string') return requirement;
    requirements.push(requirement);
  }
  return requirements;
}

/** Kubernetes semantics: `!=` and `notin` also hold when the key is missing. */
function requirementHolds(requirement: SelectorRequirement, map: Record<string, string>): boolean {
  const present = Object.hasOwn(map, requirement.key);
  const value = present ? map[requirement.key] : undefined;
  switch (requirement.op) {
    case 'exists':
      return present;
    case 'absent':
      return !present;
    case 'equals':
      return value === requirement.value;
    case 'differs':
      return value !== requirement.value;
    case 'in':
      return value !== undefined && requirement.values.includes(value);
    case 'notin':
      return value === undefined || !requirement.values.includes(value);
  }
}

function selectorTextHolds(text: string | undefined, map: Record<string, string>): boolean {
  if (text === undefined) return true;
  const requirements = parseSelectorRequirements(text);
  // A selector that does not parse matches nothing: the save refuses it, so only an old stored spec gets here.
  if (typeof requirements === 'string') return false;
  return requirements.every((requirement) => requirementHolds(requirement, map));
}

function globMatches(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 's').test(value);
}

/** `[A, !B]`: the value is not B and, when any entry is positive, matches one of them. Case-insensitive when asked. */
function listMatches(entries: readonly string[] | undefined, value: string | null, caseless: boolean): boolean {
  if (entries === undefined || entries.length === 0) return true;
  const fold = (text: string): string => (caseless ? text.toLowerCase() : text);
  const subject = value === null ? null : fold(value);
  const excluded = entries.filter((entry) => entry.startsWith('!')).map((entry) => fold(entry.slice(1)));
  const wanted = entries.filter((entry) => !entry.startsWith('!')).map(fold);
  if (subject !== null && excluded.some((pattern) => globMatches(pattern, subject))) return false;
  if (wanted.length === 0) return true;
  return subject !== null && wanted.some((pattern) => globMatches(pattern, subject));
}

function mapContains(wanted: Record<string, string> | undefined, map: Record<string, string>): boolean {
  if (wanted === undefined) return true;
  return Object.entries(wanted).every(([key, value]) => map[key] === value);
}

/** Every field the selector gives must match; a selector that gives none matches nothing. */
export function selectorMatches(selector: PlaybookResourceSelector, target: PlaybookTarget): boolean {
  if (Object.values(selector).every((value) => value === undefined)) return false;
  if (selector.id !== undefined && selector.id !== target.id) return false;
  if (selector.name !== undefined && !globMatches(selector.name, target.name)) return false;
  if (selector.namespace !== undefined && selector.namespace !== target.namespace) return false;
  return (
    listMatches(selector.types, target.kind, false) &&
    listMatches(selector.statuses, target.status, true) &&
    listMatches(selector.healths, target.health, true) &&
    mapContains(selector.tags, target.tags) &&
    mapContains(selector.labels, target.labels) &&
    selectorTextHolds(selector.tagSelector, target.tags) &&
    selectorTextHolds(selector.labelSelector, target.labels)
  );
}

const SELECTORS_OF: Readonly<Record<PlaybookTargetType, 'configs' | 'components' | 'checks'>> = {
  config: 'configs',
  component: 'components',
  check: 'checks',
};

/**
 * Whether the playbook is offered on the target: one matching selector of the target's kind is enough. A spec with no selector
 * of that kind is not offered there (and one with none at all runs only without a target).
 */
export function targetMatches(spec: PlaybookSpec, target: PlaybookTarget): boolean {
  const selectors = spec[SELECTORS_OF[target.type]] ?? [];
  return selectors.some((selector) => selectorMatches(selector, target));
}

function textMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const map: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== null && entry !== undefined) map[key] = typeof entry === 'string' ? entry : JSON.stringify(entry);
  }
  return map;
}

interface ConfigRow {
  id: string;
  name: string;
  type: string;
  config_class: string;
  status: string | null;
  health: string | null;
  description: string | null;
  tags: unknown;
  labels: unknown;
  config: unknown;
}

interface LabelledRow {
  id: string;
  name: string;
  type: string | null;
  namespace: string | null;
  status: string | null;
  labels: unknown;
}

interface ComponentRow extends LabelledRow {
  properties: unknown;
  topology_id: string | null;
}

interface CheckRow extends LabelledRow {
  canary_id: string;
  canary_name: string | null;
}

async function loadConfig(client: Queryable, id: string): Promise<PlaybookTarget | null> {
  const result = await client.query<ConfigRow>(
    `select id, name, type, config_class, status, health, description, tags, labels, config
       from config_items where id = $1 and deleted_at is null`,
    [id],
  );
  const row = result.rows[0];
  return row === undefined ? null : configTarget(row);
}

function configTarget(row: ConfigRow): PlaybookTarget {
  const tags = textMap(row.tags);
  const labels = textMap(row.labels);
  const namespace = tags.namespace ?? null;
  return {
    type: 'config',
    id: row.id,
    name: row.name,
    kind: row.type,
    namespace,
    tags,
    labels,
    status: row.status,
    health: row.health,
    row: {
      id: row.id,
      name: row.name,
      type: row.type,
      config_class: row.config_class,
      namespace,
      description: row.description,
      tags,
      labels,
      status: row.status,
      health: row.health,
      config: row.config ?? null,
    },
  };
}

/**
 * Components and checks alike: labels but no tags, and their status is their health (a component's healthy, unhealthy,
 * warning or unknown; a check's healthy or unhealthy). `extra` adds the row's own fields for templates.
 */
function labelledTarget(type: 'component' | 'check', row: LabelledRow, extra: Record<string, unknown>): PlaybookTarget {
  const labels = textMap(row.labels);
  return {
    type,
    id: row.id,
    name: row.name,
    kind: row.type,
    namespace: row.namespace,
    tags: {},
    labels,
    status: row.status,
    health: row.status,
    row: { id: row.id, name: row.name, type: row.type, namespace: row.namespace, labels, status: row.status, ...extra },
  };
}

async function loadComponent(client: Queryable, id: string): Promise<PlaybookTarget | null> {
  const result = await client.query<ComponentRow>(
    `select id, name, type, namespace, status, labels, properties, topology_id
       from components where id = $1 and deleted_at is null`,
    [id],
  );
  const row = result.rows[0];
  return row === undefined ? null : labelledTarget('component', row, { properties: row.properties ?? [], topology_id: row.topology_id });
}

async function loadCheck(client: Queryable, id: string): Promise<PlaybookTarget | null> {
  const result = await client.query<CheckRow>(
    `select k.id, k.name, k.type, c.namespace, k.status, k.labels, k.canary_id,
            c.name as canary_name
       from checks k join canaries c on c.id = k.canary_id
      where k.id = $1 and k.deleted_at is null and c.deleted_at is null`,
    [id],
  );
  const row = result.rows[0];
  return row === undefined ? null : labelledTarget('check', row, { canary_id: row.canary_id, canary_name: row.canary_name });
}

const LOADERS: Readonly<Record<PlaybookTargetType, (client: Queryable, id: string) => Promise<PlaybookTarget | null>>> = {
  config: loadConfig,
  component: loadComponent,
  check: loadCheck,
};

/** Rows read per statement while looking for matches, and at most in all: typing narrows a long list. */
const CANDIDATE_BATCH = 500;
const CANDIDATES_SCANNED = 10_000;

/**
 * Reads live rows of one kind whose name holds `search`, in (name, id) order and in batches, until `limit` of them are
 * targets the playbook is offered on or CANDIDATES_SCANNED rows were read. `from` is the kind's select, whose rows
 * carry what selectors read (a config item's document is left out: no selector reads it); `alias` its table's alias.
 */
async function scanCandidates<R extends { id: string; name: string }>(
  client: Queryable,
  query: { from: string; alias: string; toTarget: (row: R) => PlaybookTarget },
  spec: PlaybookSpec,
  search: string,
  limit: number,
): Promise<PlaybookTarget[]> {
  const { from, alias, toTarget } = query;
  const pattern = `%${search.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const found: PlaybookTarget[] = [];
  let after: R | null = null;
  for (let scanned = 0; scanned < CANDIDATES_SCANNED && found.length < limit; scanned += CANDIDATE_BATCH) {
    const result: { rows: R[] } = await client.query<R>(
      `${from} and ${alias}.name ilike $1
         and ($2::text is null or (${alias}.name, ${alias}.id) > ($2::text, $3::uuid))
       order by ${alias}.name, ${alias}.id limit ${CANDIDATE_BATCH}`,
      [pattern, after?.name ?? null, after?.id ?? null],
    );
    for (const row of result.rows) {
      const candidate = toTarget(row);
      if (targetMatches(spec, candidate)) found.push(candidate);
      if (found.length === limit) break;
    }
    after = result.rows.at(-1) ?? null;
    if (after === null || result.rows.length < CANDIDATE_BATCH) break;
  }
  return found;
}

/**
 * Up to `limit` live targets of `type` whose name holds `search` and that the playbook's selectors offer it on, in name
 * order (#34 item 12): the target picker lists only what a run would accept, judged by targetMatches as the run is.
 */
export async function matchingTargets(client: Queryable, spec: PlaybookSpec, type: PlaybookTargetType, search: string, limit: number): Promise<PlaybookTarget[]> {
  if ((spec[SELECTORS_OF[type]] ?? []).length === 0) return [];
  switch (type) {
    case 'config':
      return scanCandidates<ConfigRow>(
        client,
        { from: `select id, name, type, config_class, status, health, description, tags, labels, null as config from config_items c where deleted_at is null`, alias: 'c', toTarget: configTarget },
        spec,
        search,
        limit,
      );
    case 'component':
      return scanCandidates<ComponentRow>(
        client,
        {
          from: `select id, name, type, namespace, status, labels, properties, topology_id from components c where deleted_at is null`,
          alias: 'c',
          toTarget: (row) => labelledTarget('component', row, { properties: row.properties ?? [], topology_id: row.topology_id }),
        },
        spec,
        search,
        limit,
      );
    case 'check':
      return scanCandidates<CheckRow>(
        client,
        {
          from: `select k.id, k.name, k.type, c.namespace, k.status, k.labels, k.canary_id, c.name as canary_name
                   from checks k join canaries c on c.id = k.canary_id where k.deleted_at is null and c.deleted_at is null`,
          alias: 'k',
          toTarget: (row) => labelledTarget('check', row, { canary_id: row.canary_id, canary_name: row.canary_name }),
        },
        spec,
        search,
        limit,
      );
  }
}

/** The live config item, component or check a run targets, or null when there is none with that id. */
export async function loadTarget(client: Queryable, type: PlaybookTargetType, id: string): Promise<PlaybookTarget | null> {
  if (!UUID.test(id)) return null;
  return LOADERS[type](client, id);
}
