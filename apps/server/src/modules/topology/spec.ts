import {
  TOPOLOGY_CATALOG_LOOKUP_FIELDS,
  TOPOLOGY_CHECK_LOOKUP_TYPES,
  TOPOLOGY_CHECK_FIELDS,
  TOPOLOGY_CHECK_SELECTOR_FIELDS,
  TOPOLOGY_COMPONENT_FIELDS,
  TOPOLOGY_COMPONENT_SELECTOR_FIELDS,
  TOPOLOGY_CONFIG_LOOKUP_FIELDS,
  TOPOLOGY_CONFIG_SELECTOR_FIELDS,
  TOPOLOGY_FOR_EACH_FIELDS,
  TOPOLOGY_GROUP_BY_FIELDS,
  TOPOLOGY_PARENT_LOOKUP_FIELDS,
  TOPOLOGY_LINK_FIELDS,
  TOPOLOGY_LOOKUP_KINDS,
  TOPOLOGY_MAX_DEPTH,
  TOPOLOGY_NAME_MAX_LENGTH,
  TOPOLOGY_PROPERTY_FIELDS,
  TOPOLOGY_SPEC_FIELDS,
  isComponentStatus,
  type ComponentProperty,
  type ComponentPropertyLink,
  type TopologyCheckLookupType,
  type TopologyFieldTable,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { CanarySpecError, canarySpecHoldsSecrets, canarySpecRunsExec, checksFromCanarySpec, displayProblem, isValidSchedule } from '../health';
import { jsonPathProblem } from '../scrapers';
import type { CheckSelector, ComponentFields, ComponentSelector, ConfigSelector, InlineCanary } from './types';

/** A catalog selector as parsed; `classes` is matched against each item's config_class after the query. */
export interface ParsedConfigSelector extends ConfigSelector {
  classes?: string[];
}

/**
 * A property's value read from a catalog item, by a JSONPath (`field`) or a display (CEL, Go template or sandboxed
 * JavaScript over `config` and the item's fields); `selector` null reads the looked-up item itself.
 */
export interface ParsedConfigLookup {
  selector: ParsedConfigSelector | null;
  field?: string;
  display?: Record<string, unknown>;
}

/** A check lookup: a check of its type run when the topology is built, its display giving components or a property. */
export interface ParsedCheckLookup {
  type: TopologyCheckLookupType;
  /** The check entry as a canary holds it, named (`<type>-lookup` when the spec gives no name). */
  spec: Record<string, unknown>;
  /** Where it stands in the spec, for the build's errors. */
  at: string;
}

/**
 * A catalog lookup with a display or a test: canary-checker's catalog check, whose `results` are the items its
 * selectors find.
 */
export interface ParsedCatalogCheck {
  selectors: ParsedConfigSelector[];
  /** Returns the components as JSON, made in place of one per item; null with a test alone. */
  display: Record<string, unknown> | null;
  /** Fails the build unless it is true; null when the entry has none or an empty one (`test: {}`). */
  test: Record<string, unknown> | null;
  /** Where it stands in the spec, for the build's errors. */
  at: string;
}

export interface ParsedProperty {
  property: ComponentProperty;
  configLookup: ParsedConfigLookup | null;
  /** Check lookups whose display gives the property (or properties of the children). */
  lookup: ParsedCheckLookup[] | null;
}

/** What every looked-up component also gets; its strings still hold the forEach templates, replaced per item. */
export interface ParsedForEach {
  type?: string;
  icon?: string;
  labels: Record<string, string>;
  properties: ParsedProperty[];
  checks: CheckSelector[];
  configs: ParsedConfigSelector[];
  components: ParsedComponent[];
  selectors: ComponentSelector[];
}

export interface ParsedComponent extends ComponentFields {
  /** Absent on the root (named after the topology) and on a lookup that generates siblings; '' on a nameless one. */
  name?: string;
  /** An explicit `id`/`externalID`. */
  key?: string;
  /** An `id` written as an expression (expr, template or javascript) over `self` and `properties`: the key when it gives text. */
  keyExpression?: Record<string, unknown>;
  properties: ParsedProperty[];
  checks: CheckSelector[];
  configs: ParsedConfigSelector[];
  components: ParsedComponent[];
  /** Other components the run lists under this one (`selectors`). */
  selectors: ComponentSelector[];
  /** CEL over `summary` giving the status (`statusExpr`), worked out by each run. */
  statusExpr?: string;
  /**
   * The selectors of the `lookup.catalog` entries without a display; an item matching any of them becomes a component.
   * Empty with check lookups or catalog displays alone.
   */
  lookup: ParsedConfigSelector[] | null;
  /** The `lookup.catalog` entries with a display or a test. */
  catalogChecks: ParsedCatalogCheck[];
  /** The check lookups of `lookup` (http, kubernetes…): each display's components are made too. */
  lookupChecks: ParsedCheckLookup[];
  forEach: ParsedForEach | null;
  /** Where the build moves this component once the tree is made (canary-checker's parentLookup). */
  parentLookup?: ParentLookup;
}

/** A component of the same topology, by name, type and namespace (each '' when left out), or by its key. */
export interface ParentLookup {
  name: string;
  type: string;
  namespace: string;
  externalID?: string;
}

/** `spec.groupBy`: one tree per value of a catalog tag, among the items `selector` matches when given. */
export interface ParsedGroupBy {
  tag: string;
  selector: ParsedConfigSelector | null;
}

export interface ParsedTopologySpec {
  /** The resource's metadata when the whole resource was given. */
  metadata: { name?: string; namespace?: string; labels?: Record<string, string> } | null;
  schedule: string | null;
  root: ParsedComponent;
  groupBy: ParsedGroupBy | null;
}

const SELECTOR_HINT = 'Select the checks to attach: checks: [{selector: {name: my-check}}]';
const LOOKUP_HINT = 'Look up catalog items: lookup: {catalog: [{types: [Kubernetes::Pod]}]}';
const SELECTOR_FIELDS_HINT = 'Name at least one of id, name, namespace, type, types, class, tags, tagSelector or labelSelector';
const PAIRS_HINT = 'Write key=value pairs joined by commas, e.g. app=web,env=prod';

const COMPONENT_TEXT_FIELDS = ['type', 'icon', 'text', 'description', 'owner', 'lifecycle', 'namespace'] as const;
const PROPERTY_TEXT_FIELDS = ['label', 'type', 'text', 'unit', 'icon', 'color', 'tooltip'] as const;
const PROPERTY_NUMBER_FIELDS = ['value', 'min', 'max', 'order'] as const;
const LINK_TEXT_FIELDS = ['type', 'text', 'label', 'icon', 'tooltip'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(base: string, key: string | number): string {
  return typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`;
}

function invalid(field: string, problem: string, hint?: string): never {
  throw errors.topologySpec(field, problem, hint);
}

/**
 * Refuses, by name, every key of `entry` its table refuses or does not name (ADR 0073: nothing is accepted and
 * ignored); a key set to null counts as left out.
 */
function refuseNotRun(entry: Record<string, unknown>, table: TopologyFieldTable, field: string): void {
  for (const [key, value] of Object.entries(entry)) {
    if (value === undefined || value === null) continue;
    const rule = Object.hasOwn(table, key) ? table[key] : undefined;
    if (rule === undefined) {
      const known = Object.entries(table).flatMap(([known, entryRule]) => (entryRule.support === 'runs' ? [known] : []));
      throw errors.topologyFieldNotRun(join(field, key), "is not a field of Mission Control's Topology that this server knows", `The fields that run here: ${known.join(', ')} (docs/compatibility.md)`);
    }
    if (rule.support === 'refused') throw errors.topologyFieldNotRun(join(field, key), 'is refused at save', rule.note);
  }
}

function isResource(value: Record<string, unknown>): boolean {
  return value.kind === 'Topology' || value.kind === 'SystemTemplate' || (typeof value.apiVersion === 'string' && value.spec !== undefined);
}

function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(field, 'must be text');
  return value;
}

function optionalNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(field, 'must be a number');
  return value;
}

function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') invalid(field, 'must be true or false');
  return value;
}

function list(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(field, 'must be a list');
  return value;
}

function object(value: unknown, field: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(field, 'must be an object');
  return value;
}

function name(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') invalid(field, 'is required');
  if (value.length > TOPOLOGY_NAME_MAX_LENGTH) invalid(field, `must be at most ${TOPOLOGY_NAME_MAX_LENGTH} characters`);
  return value;
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) invalid(field, 'must be a map of text values');
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') invalid(join(field, key), 'must be text');
  }
  return { ...(value as Record<string, string>) };
}

/** `a=b,c=d` as a map. */
function pairs(value: unknown, field: string): Record<string, string> {
  if (typeof value !== 'string') invalid(field, 'must be text', PAIRS_HINT);
  const map: Record<string, string> = {};
  for (const pair of value.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = at === -1 ? '' : pair.slice(0, at).trim();
    const entry = at === -1 ? '' : pair.slice(at + 1).trim();
    if (key === '' || /[!=<>()]/.test(key) || entry.startsWith('=')) invalid(field, `has '${pair.trim()}', which is not key=value`, PAIRS_HINT);
    map[key] = entry;
  }
  return map;
}

/** A check's `labelSelector`: `key=value` pairs, or a bare `key` that must only exist, joined by commas. */
function checkLabelSelector(value: unknown, field: string): string {
  if (typeof value !== 'string') invalid(field, 'must be text', PAIRS_HINT);
  for (const part of value.split(',')) {
    const pair = part.trim();
    if (pair === '' || (!pair.includes('=') && !/[!<>()\s]/.test(pair))) continue;
    pairs(pair, field);
  }
  return value;
}

function textList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = typeof value === 'string' ? [value] : list(value, field);
  return items.map((item, index) => {
    if (typeof item !== 'string' || item.trim() === '') invalid(join(field, index), 'must be text');
    return item;
  });
}

function configSelector(value: unknown, field: string, table: TopologyFieldTable = TOPOLOGY_CONFIG_SELECTOR_FIELDS): ParsedConfigSelector {
  const entry = object(value, field);
  refuseNotRun(entry, table, field);
  const selector: ParsedConfigSelector = {};
  const ids = textList(entry.id, join(field, 'id'));
  if (ids !== undefined) selector.id = ids;
  const itemName = optionalText(entry.name, join(field, 'name'));
  if (itemName !== undefined) selector.name = itemName;
  const namespace = optionalText(entry.namespace, join(field, 'namespace'));
  if (namespace !== undefined) selector.namespace = namespace;
  const types = [...(textList(entry.type, join(field, 'type')) ?? []), ...(textList(entry.types, join(field, 'types')) ?? [])];
  if (types.length > 0) selector.types = types;
  const configClass = optionalText(entry.class, join(field, 'class'));
  if (configClass !== undefined) selector.classes = [configClass];
  const tags = { ...stringMap(entry.tags, join(field, 'tags')), ...(entry.tagSelector === undefined ? {} : pairs(entry.tagSelector, join(field, 'tagSelector'))) };
  if (Object.keys(tags).length > 0) selector.tags = tags;
  const labels = entry.labelSelector === undefined ? {} : pairs(entry.labelSelector, join(field, 'labelSelector'));
  if (Object.keys(labels).length > 0) selector.labels = labels;
  if (Object.keys(selector).length === 0) invalid(field, 'names no field to select catalog items by', SELECTOR_FIELDS_HINT);
  // A class alone would read the whole catalog before filtering it.
  if (Object.keys(selector).length === 1 && selector.classes !== undefined) invalid(field, 'selects by class alone', 'Add a type, name, namespace or tags next to class');
  return selector;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A `selectors` entry: Mission Control's resource selector, with the fields that apply to components here. */
function componentSelector(value: unknown, at: string): ComponentSelector {
  const raw = object(value, at);
  refuseNotRun(raw, TOPOLOGY_COMPONENT_SELECTOR_FIELDS, at);
  const selector: ComponentSelector = {};
  const ids = textList(raw.id, join(at, 'id'));
  if (ids !== undefined && ids.length > 0) selector.id = ids;
  const componentName = optionalText(raw.name, join(at, 'name'));
  if (componentName !== undefined) selector.name = componentName;
  const namespace = optionalText(raw.namespace, join(at, 'namespace'));
  if (namespace !== undefined) selector.namespace = namespace;
  const types = textList(raw.types, join(at, 'types'));
  if (types !== undefined && types.length > 0) selector.types = types;
  const statuses = textList(raw.statuses, join(at, 'statuses'));
  const unknown = statuses?.find((status) => !isComponentStatus(status));
  if (unknown !== undefined) invalid(join(at, 'statuses'), `has '${unknown}', which is not a component status`, 'Write healthy, unhealthy, warning or unknown');
  if (statuses !== undefined && statuses.length > 0) selector.statuses = statuses;
  if (raw.labelSelector !== undefined && raw.labelSelector !== null) selector.labelSelector = checkLabelSelector(raw.labelSelector, join(at, 'labelSelector'));
  if (Object.keys(selector).length === 0) invalid(at, 'names no field to select components by', 'Name at least one of id, name, namespace, types, statuses or labelSelector');
  const agent = optionalText(raw.agent, join(at, 'agent'));
  if (agent !== undefined && agent !== '') {
    if (agent === 'all') selector.agent = null;
    else if (UUID.test(agent)) selector.agent = agent;
    else invalid(join(at, 'agent'), `'${agent}' is not an agent id`, "Leave agent out for this server's own components, or write all or an agent id");
  }
  return selector;
}

function componentSelectors(value: unknown, field: string): ComponentSelector[] {
  return list(value, field).map((entry, index) => componentSelector(entry, join(field, index)));
}

/** The CEL of a statusExpr, checked; undefined when none is written. */
function statusExprOf(value: unknown, field: string): string | undefined {
  const statusExpr = optionalText(value, field);
  if (statusExpr === undefined || statusExpr.trim() === '') return undefined;
  const problem = displayProblem({ expr: statusExpr });
  if (problem !== null) invalid(field, problem, 'Write CEL over summary, e.g. summary.unhealthy > 0 ? "unhealthy" : "healthy"');
  return statusExpr;
}

/**
 * The status fields a lookup's display may return for a component, as canary-checker reads them: `selectors`,
 * `statusExpr`, and `status` with `status_reason`, which stand until the next run (a `statusExpr` beside them decides,
 * as Mission Control evaluates it over the lookup's status; canary-checker's `error` is unhealthy here). Throws
 * OD_TOPOLOGY_SPEC naming the field, at run time.
 */
export function displayedStatusFields(entry: Readonly<Record<string, unknown>>, at: string): { selectors: ComponentSelector[]; statusExpr?: string; statusReason?: string } {
  const selectors = entry.selectors === undefined || entry.selectors === null ? [] : componentSelectors(entry.selectors, join(at, 'selectors'));
  const statusExpr = statusExprOf(entry.statusExpr, join(at, 'statusExpr'));
  const status = optionalText(entry.status, join(at, 'status'));
  const given = optionalText(entry.status_reason, join(at, 'status_reason'));
  let reason = given === undefined || given === '' ? undefined : given;
  let fixed: string | undefined;
  if (status !== undefined && status !== '') {
    // canary-checker stores whatever text a display gives (an item's own status, `Running`); here a component's status
    // is one of four, so another text is kept as the reason of an unknown status rather than dropped.
    const known = status === 'error' ? 'unhealthy' : status;
    if (isComponentStatus(known)) fixed = known;
    else {
      fixed = 'unknown';
      reason ??= `status '${status}' is not healthy, unhealthy, warning or unknown`;
    }
  }
  const expression = statusExpr ?? (fixed === undefined ? undefined : JSON.stringify(fixed));
  return {
    selectors,
    ...(expression === undefined ? {} : { statusExpr: expression }),
    ...(reason === undefined || expression === undefined ? {} : { statusReason: reason }),
  };
}

function selectorOf(value: unknown, at: string): CheckSelector {
  const raw = object(value, at);
  refuseNotRun(raw, TOPOLOGY_CHECK_SELECTOR_FIELDS, at);
  const selector: CheckSelector = {};
  const checkName = optionalText(raw.name, join(at, 'name'));
  if (checkName !== undefined) selector.name = checkName;
  const namespace = optionalText(raw.namespace, join(at, 'namespace'));
  if (namespace !== undefined) selector.namespace = namespace;
  if (raw.labelSelector !== undefined) selector.labelSelector = checkLabelSelector(raw.labelSelector, join(at, 'labelSelector'));
  const types = textList(raw.types, join(at, 'types'));
  if (types !== undefined && types.length > 0) selector.types = types;
  if (Object.keys(selector).length === 0) invalid(at, 'names no field to select checks by', 'Name at least one of name, namespace, labelSelector or types');
  return selector;
}

/**
 * An inline canary, checked by the canary rules (ADR 0069) where it stands. Refused when it would need what a topology
 * spec cannot give it: a script (exec checks need the execute permission, which topology writers do not need) or a
 * secret (canary specs seal theirs; a topology spec is stored as written).
 */
function inlineCanary(value: unknown, at: string, owner: string, key: string): InlineCanary {
  const spec = object(value, at);
  try {
    if (checksFromCanarySpec(spec).length === 0) invalid(at, 'defines no check', 'List the checks as a canary does: http: [{name: site, url: https://example.com}]');
  } catch (error) {
    if (error instanceof CanarySpecError) invalid(at, `is not a canary this server runs: ${error.message}`, 'Write the canary as its own spec would be written: schedule and check lists (http, tcp, dns, …)');
    throw error;
  }
  if (canarySpecRunsExec(spec)) invalid(at, 'holds an exec check, which a topology does not run', 'Save the exec check in a canary of its own (admins) and select it: checks: [{selector: {name: my-check}}]');
  if (canarySpecHoldsSecrets(spec)) invalid(at, 'holds a secret (a password, token, header or body), which a topology spec does not store sealed', 'Save the check in a canary of its own, where secrets are sealed, and select it');
  return { key, owner, spec };
}

/** A `checks` entry: its selector, its inline canary, or both (each attaches its own checks). */
function checkEntry(value: unknown, field: string, owner: string | null): CheckSelector[] {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_CHECK_FIELDS, field);
  if (entry.selector === undefined && entry.inline === undefined) invalid(join(field, 'selector'), 'is required', SELECTOR_HINT);
  const selectors: CheckSelector[] = [];
  if (entry.selector !== undefined) selectors.push(selectorOf(entry.selector, join(field, 'selector')));
  if (entry.inline !== undefined) {
    if (owner === null) invalid(join(field, 'inline'), 'is not run inside forEach: every looked-up component would share one canary', 'Define the inline canary on the component that holds the lookup, or select checks here');
    selectors.push({ inline: inlineCanary(entry.inline, join(field, 'inline'), owner, field) });
  }
  return selectors;
}

function checkJsonPath(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') invalid(field, 'is required: a JSONPath such as $.spec.replicas');
  const problem = jsonPathProblem(value);
  if (problem !== null) invalid(field, `is not a JSONPath that can be used: '${value}' ${problem}`, 'Write a JSONPath of names, indexes and wildcards, e.g. $.status.replicas; filters and scripts are not evaluated');
  return value.trim();
}

function link(value: unknown, field: string): ComponentPropertyLink {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_LINK_FIELDS, field);
  if (typeof entry.url !== 'string' || entry.url.trim() === '') invalid(join(field, 'url'), 'is required');
  const parsed: ComponentPropertyLink = { url: entry.url };
  for (const key of LINK_TEXT_FIELDS) {
    const text = optionalText(entry[key], join(field, key));
    if (text !== undefined) parsed[key] = text;
  }
  return parsed;
}

function property(value: unknown, field: string, lookedUp: boolean): ParsedProperty {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_PROPERTY_FIELDS, field);
  const parsed: ComponentProperty = { name: name(entry.name, join(field, 'name')) };
  for (const key of PROPERTY_TEXT_FIELDS) {
    const text = optionalText(entry[key], join(field, key));
    if (text !== undefined) parsed[key] = text;
  }
  for (const key of PROPERTY_NUMBER_FIELDS) {
    const number = optionalNumber(entry[key], join(field, key));
    if (number !== undefined) parsed[key] = number;
  }
  for (const key of ['headline', 'hidden'] as const) {
    const flag = optionalBoolean(entry[key], join(field, key));
    if (flag !== undefined) parsed[key] = flag;
  }
  const links = list(entry.links, join(field, 'links'));
  if (links.length > 0) parsed.links = links.map((item, index) => link(item, join(join(field, 'links'), index)));
  if (entry.lookup !== undefined && entry.lookup !== null) {
    if (entry.configLookup !== undefined && entry.configLookup !== null) invalid(join(field, 'lookup'), 'cannot be given beside configLookup', 'Read the value one way: a check lookup or configLookup');
    const lookups = checkLookups(object(entry.lookup, join(field, 'lookup')), join(field, 'lookup'), false);
    if (lookups.length === 0) invalid(join(field, 'lookup'), `is empty: give one of ${TOPOLOGY_CHECK_LOOKUP_TYPES.join(', ')}`);
    return { property: parsed, configLookup: null, lookup: lookups };
  }
  if (entry.configLookup === undefined || entry.configLookup === null) return { property: parsed, configLookup: null, lookup: null };
  const at = join(field, 'configLookup');
  const lookup = object(entry.configLookup, at);
  refuseNotRun(lookup, TOPOLOGY_CONFIG_LOOKUP_FIELDS, at);
  const id = optionalText(lookup.id, join(at, 'id'));
  let selector: ParsedConfigSelector | null = null;
  if (lookup.config !== undefined && lookup.config !== null) selector = configSelector(lookup.config, join(at, 'config'));
  else if (id !== undefined && id.trim() !== '') selector = { id: [id] };
  else if (!lookedUp) invalid(join(at, 'config'), 'is required outside forEach: name the catalog item to read (config or id)');
  if (lookup.display !== undefined && lookup.display !== null) {
    if (lookup.field !== undefined && lookup.field !== null) invalid(join(at, 'field'), 'cannot be given beside display', 'Read the value one way: field (a JSONPath) or display');
    const problem = displayProblem(lookup.display);
    if (problem !== null) invalid(join(at, 'display'), problem);
    return { property: parsed, configLookup: { selector, display: object(lookup.display, join(at, 'display')) }, lookup: null };
  }
  return { property: parsed, configLookup: { selector, field: checkJsonPath(lookup.field, join(at, 'field')) }, lookup: null };
}

function properties(value: unknown, field: string, lookedUp: boolean): ParsedProperty[] {
  return list(value, field).map((entry, index) => property(entry, join(field, index), lookedUp));
}

/**
 * The check lookups of a `lookup` (component or property), each judged by the canary rules where it stands: exec is
 * never one (TOPOLOGY_CHECK_LOOKUP_TYPES), a secret is refused (a topology spec is stored as written), and `display`
 * is required, since it is what gives the components.
 */
function checkLookups(lookup: Record<string, unknown>, field: string, catalogAllowed: boolean): ParsedCheckLookup[] {
  for (const key of Object.keys(lookup)) {
    const isCatalog = key === 'catalog' || key === 'configs';
    if (isCatalog && !catalogAllowed) invalid(join(field, key), 'is a catalog lookup, which gives components, not a property', 'Read a catalog item with configLookup: {config: {...}, field: $.path}');
    if (!isCatalog) refuseNotRun({ [key]: lookup[key] }, TOPOLOGY_LOOKUP_KINDS, field);
  }
  return TOPOLOGY_CHECK_LOOKUP_TYPES.flatMap((type) =>
    list(lookup[type], join(field, type)).map((raw, index) => {
      const at = join(join(field, type), index);
      const entry = object(raw, at);
      const display = entry.display;
      if (!isRecord(display) || (typeof display.expr !== 'string' && typeof display.template !== 'string' && typeof display.javascript !== 'string')) {
        invalid(join(at, 'display'), 'is required: it returns the components (or the property) as JSON', "display: {expr: \"[{'name': 'api', 'type': 'API'}].toJSON()\"}");
      }
      const spec = { ...entry, name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : `${type}-lookup` };
      const canary = { [type]: [spec] };
      try {
        checksFromCanarySpec(canary);
      } catch (error) {
        if (error instanceof CanarySpecError) invalid(at, `is not a ${type} check this server runs: ${error.message}`, 'Write the lookup as the check would be written in a canary');
        throw error;
      }
      if (canarySpecHoldsSecrets(canary)) invalid(at, 'holds a secret (a password, token, header or body), which a topology spec does not store sealed', 'Name a stored connection instead: connection: connection://namespace/name');
      return { type, spec, at };
    }),
  );
}

const EXPRESSION_FORMS = new Set(['expr', 'template', 'javascript', 'jsonPath']);
const DISPLAY_HINT = "display: {expr: \"dyn(results).map(r, {'name': r.name}).toJSON()\"}";

/** A catalog lookup's `test`: null when left out or empty (`{}`, as the published fixtures write it), else checked as a display. */
function catalogTest(value: unknown, field: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  const test = object(value, field);
  // Only the forms may be left empty: any other key is judged (and refused) as on a display.
  const given = Object.entries(test).filter(([key, form]) => !EXPRESSION_FORMS.has(key) || (form !== undefined && form !== null && form !== ''));
  if (given.length === 0) return null;
  const problem = displayProblem(test);
  if (problem !== null) invalid(field, problem, 'Write CEL over results, e.g. test: {expr: "size(results) > 0"}');
  return test;
}

/** The `lookup.catalog` and `lookup.configs` (Mission Control's spelling) entries; other kinds are refused. */
function lookupSelectors(value: unknown, field: string): { selectors: ParsedConfigSelector[]; catalogChecks: ParsedCatalogCheck[]; checks: ParsedCheckLookup[] } {
  const lookup = object(value, field);
  refuseNotRun(lookup, TOPOLOGY_LOOKUP_KINDS, field);
  const checks = checkLookups(lookup, field, true);
  const entries = (['catalog', 'configs'] as const).flatMap((kind) => list(lookup[kind], join(field, kind)).map((raw, index) => ({ raw, at: join(join(field, kind), index) })));
  if (entries.length === 0 && checks.length === 0) invalid(join(field, 'catalog'), 'is required: one or more catalog selectors or check lookups', LOOKUP_HINT);
  const selectors: ParsedConfigSelector[] = [];
  const catalogChecks: ParsedCatalogCheck[] = [];
  for (const { raw, at } of entries) {
    const entry = object(raw, at);
    let found: ParsedConfigSelector[];
    if (entry.selector === undefined || entry.selector === null) found = [configSelector(entry, at, TOPOLOGY_CATALOG_LOOKUP_FIELDS)];
    else {
      refuseNotRun(entry, TOPOLOGY_CATALOG_LOOKUP_FIELDS, at);
      optionalText(entry.name, join(at, 'name'));
      if (Array.isArray(entry.selector)) {
        if (entry.selector.length === 0) invalid(join(at, 'selector'), 'is an empty list', SELECTOR_FIELDS_HINT);
        found = entry.selector.map((selector: unknown, position) => configSelector(selector, join(join(at, 'selector'), position)));
      } else found = [configSelector(entry.selector, join(at, 'selector'))];
    }
    let display: Record<string, unknown> | null = null;
    if (entry.display !== undefined && entry.display !== null) {
      const problem = displayProblem(entry.display);
      if (problem !== null) invalid(join(at, 'display'), problem, DISPLAY_HINT);
      display = object(entry.display, join(at, 'display'));
    }
    const test = catalogTest(entry.test, join(at, 'test'));
    // A display's components stand in for the one-per-item components; a test alone leaves those as they are.
    if (display === null) selectors.push(...found);
    if (display !== null || test !== null) catalogChecks.push({ selectors: found, display, test, at });
  }
  return { selectors, catalogChecks, checks };
}

interface Level {
  depth: number;
  /** Sibling names (components without an explicit key) and explicit keys seen so far, for duplicates. */
  siblings: Set<string>;
  keys: Set<string>;
}

function explicitKey(entry: Record<string, unknown>, field: string): string | undefined {
  if (typeof entry.id === 'string') {
    if (entry.id.trim() === '') invalid(join(field, 'id'), 'must not be empty');
    return entry.id;
  }
  if (isRecord(entry.id)) return undefined;
  if (entry.id !== undefined && entry.id !== null) invalid(join(field, 'id'), 'must be text or an expression ({expr}, {template} or {javascript})');
  const external = optionalText(entry.externalID, join(field, 'externalID'));
  if (external !== undefined && external.trim() === '') invalid(join(field, 'externalID'), 'must not be empty');
  return external;
}

function components(value: unknown, field: string, depth: number, keys: Set<string>): ParsedComponent[] {
  const siblings = new Set<string>();
  return list(value, field).map((entry, index) => component(entry, join(field, index), { depth, siblings, keys }));
}

function forEachOf(value: unknown, field: string, depth: number, keys: Set<string>): ParsedForEach {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_FOR_EACH_FIELDS, field);
  const parsed: ParsedForEach = {
    labels: stringMap(entry.labels, join(field, 'labels')),
    properties: properties(entry.properties, join(field, 'properties'), true),
    checks: list(entry.checks, join(field, 'checks')).flatMap((check, index) => checkEntry(check, join(join(field, 'checks'), index), null)),
    configs: list(entry.configs, join(field, 'configs')).map((selector, index) => configSelector(selector, join(join(field, 'configs'), index))),
    // Every looked-up component gets these children, so their explicit keys repeat by design: they keep their own set.
    components: components(entry.components, join(field, 'components'), depth, new Set(keys)),
    selectors: componentSelectors(entry.selectors, join(field, 'selectors')),
  };
  const type = optionalText(entry.type, join(field, 'type'));
  if (type !== undefined) parsed.type = type;
  const icon = optionalText(entry.icon, join(field, 'icon'));
  if (icon !== undefined) parsed.icon = icon;
  return parsed;
}

/** The component an inline canary is named after: the root, the component's name, or `unnamed` (canary-checker's word). */
function inlineOwner(entry: Record<string, unknown>, table: TopologyFieldTable): string {
  if (table === TOPOLOGY_SPEC_FIELDS) return 'root';
  return typeof entry.name === 'string' && entry.name !== '' ? entry.name : 'unnamed';
}

/** The fields the root and every component share. */
function componentBody(entry: Record<string, unknown>, field: string, depth: number, keys: Set<string>, lookedUp: boolean, table: TopologyFieldTable): ParsedComponent {
  refuseNotRun(entry, table, field);
  const parsed: ParsedComponent = {
    hidden: optionalBoolean(entry.hidden, join(field, 'hidden')) ?? false,
    labels: stringMap(entry.labels, join(field, 'labels')),
    properties: properties(entry.properties, join(field, 'properties'), lookedUp),
    checks: list(entry.checks, join(field, 'checks')).flatMap((check, index) => checkEntry(check, join(join(field, 'checks'), index), inlineOwner(entry, table))),
    configs: list(entry.configs, join(field, 'configs')).map((selector, index) => configSelector(selector, join(join(field, 'configs'), index))),
    components: components(entry.components, join(field, 'components'), depth + 1, keys),
    selectors: componentSelectors(entry.selectors, join(field, 'selectors')),
    lookup: null,
    catalogChecks: [],
    lookupChecks: [],
    forEach: null,
  };
  for (const key of COMPONENT_TEXT_FIELDS) {
    const text = optionalText(entry[key], join(field, key));
    if (text !== undefined) parsed[key] = text;
  }
  const statusExpr = statusExprOf(entry.statusExpr, join(field, 'statusExpr'));
  if (statusExpr !== undefined) {
    parsed.statusExpr = statusExpr;
  }
  return parsed;
}

function parentLookupOf(value: unknown, field: string): ParentLookup {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_PARENT_LOOKUP_FIELDS, field);
  const lookup: ParentLookup = {
    name: optionalText(entry.name, join(field, 'name')) ?? '',
    type: optionalText(entry.type, join(field, 'type')) ?? '',
    namespace: optionalText(entry.namespace, join(field, 'namespace')) ?? '',
  };
  const externalID = optionalText(entry.externalID, join(field, 'externalID'));
  if (externalID !== undefined && externalID.trim() !== '') lookup.externalID = externalID;
  else if (lookup.name.trim() === '') invalid(field, 'names no parent', 'Give the parent\'s name (with its type and namespace) or its externalID');
  return lookup;
}

/** An `id` written as an expression, checked as a display is; undefined for a text id or none. */
function idExpression(entry: Record<string, unknown>, field: string): Record<string, unknown> | undefined {
  if (!isRecord(entry.id)) return undefined;
  const problem = displayProblem(entry.id);
  if (problem !== null) invalid(join(field, 'id'), problem, 'Write the id as text, or as {expr}, {template} or {javascript} over self and properties');
  return entry.id;
}

function component(value: unknown, field: string, level: Level): ParsedComponent {
  if (level.depth > TOPOLOGY_MAX_DEPTH) invalid(field, `is nested deeper than ${TOPOLOGY_MAX_DEPTH} levels`, 'Flatten the tree, or group with fewer levels');
  const entry = object(value, field);
  const hasLookup = entry.lookup !== undefined && entry.lookup !== null;
  // canary-checker reads an empty name as none: a lookup then generates siblings, anything else is stored nameless.
  const givenName = entry.name === undefined || entry.name === null || entry.name === '' ? undefined : name(entry.name, join(field, 'name'));
  const componentName = givenName ?? (hasLookup ? undefined : '');
  const key = explicitKey(entry, field);
  if (key !== undefined) {
    if (level.keys.has(key)) invalid(join(field, typeof entry.id === 'string' ? 'id' : 'externalID'), `'${key}' is the id of another component`, 'Give every component its own id');
    level.keys.add(key);
  } else if (componentName !== undefined && componentName !== '') {
    if (level.siblings.has(componentName)) invalid(join(field, 'name'), `'${componentName}' is the name of a sibling`, 'Rename one of them, or give them different ids');
    level.siblings.add(componentName);
  }
  // Without a name the looked-up components take this one's place, so its own fields apply to each of them.
  const generator = hasLookup && componentName === undefined;
  const itemDepth = hasLookup && !generator ? level.depth + 1 : level.depth;
  if (itemDepth > TOPOLOGY_MAX_DEPTH) invalid(join(field, 'lookup'), `would nest its components deeper than ${TOPOLOGY_MAX_DEPTH} levels`, 'Flatten the tree');
  const parsed = componentBody(entry, field, level.depth, level.keys, generator, TOPOLOGY_COMPONENT_FIELDS);
  if (componentName !== undefined) parsed.name = componentName;
  if (key !== undefined) parsed.key = key;
  const keyExpression = idExpression(entry, field);
  if (keyExpression !== undefined) parsed.keyExpression = keyExpression;
  if (hasLookup) {
    const lookup = lookupSelectors(entry.lookup, join(field, 'lookup'));
    parsed.lookup = lookup.selectors;
    parsed.catalogChecks = lookup.catalogChecks;
    parsed.lookupChecks = lookup.checks;
  }
  if (entry.parentLookup !== undefined && entry.parentLookup !== null) parsed.parentLookup = parentLookupOf(entry.parentLookup, join(field, 'parentLookup'));
  if (entry.forEach !== undefined && entry.forEach !== null) {
    if (!hasLookup) invalid(join(field, 'forEach'), 'applies to looked-up components: add a lookup', LOOKUP_HINT);
    parsed.forEach = forEachOf(entry.forEach, join(field, 'forEach'), itemDepth + 1, level.keys);
  }
  return parsed;
}

function groupByOf(value: unknown, field: string): ParsedGroupBy {
  const entry = object(value, field);
  refuseNotRun(entry, TOPOLOGY_GROUP_BY_FIELDS, field);
  const tag = optionalText(entry.tag, join(field, 'tag'));
  if (tag === undefined || tag.trim() === '') invalid(join(field, 'tag'), 'is required: the catalog tag whose values make the groups', 'groupBy: {tag: cluster}');
  const selector = entry.selector === undefined || entry.selector === null ? null : configSelector(entry.selector, join(field, 'selector'));
  return { tag, selector };
}

function metadataOf(value: unknown): ParsedTopologySpec['metadata'] {
  if (value === undefined || value === null) return {};
  const metadata = object(value, 'metadata');
  const parsed: NonNullable<ParsedTopologySpec['metadata']> = {};
  const metadataName = optionalText(metadata.name, 'metadata.name');
  if (metadataName !== undefined && metadataName.trim() !== '') parsed.name = name(metadataName, 'metadata.name');
  const namespace = optionalText(metadata.namespace, 'metadata.namespace');
  if (namespace !== undefined && namespace.trim() !== '') parsed.namespace = namespace;
  if (metadata.labels !== undefined && metadata.labels !== null) parsed.labels = stringMap(metadata.labels, 'metadata.labels');
  return parsed;
}

/**
 * A stored or submitted topology spec, checked and normalized: the whole Mission Control resource or the spec alone;
 * `type` folded into `types`, `tagSelector`/`tags` into `tags`, `labelSelector` into `labels`. Throws OD_TOPOLOGY_SPEC
 * naming the field (`spec.components[0].checks[1].selector`) on what does not hold: selectors without a field, JSONPath
 * filters, bad types, names over 255 characters, nesting deeper than 10, duplicate sibling names or ids; and
 * OD_TOPOLOGY_FIELD_NOT_RUN naming every key the tables of packages/shared/src/topology-spec.ts refuse or do not know
 * (inline checks, lookups other than the catalog, property lookups, statusExpr…), so nothing is saved and ignored.
 */
export function parseTopologySpec(value: unknown): ParsedTopologySpec {
  const whole = value === undefined || value === null ? {} : object(value, 'spec');
  const resource = isResource(whole);
  const spec = resource ? object(whole.spec, 'spec') : whole;
  let schedule: string | null = null;
  if (spec.schedule !== undefined && spec.schedule !== null && spec.schedule !== '') {
    if (typeof spec.schedule !== 'string' || !isValidSchedule(spec.schedule)) {
      invalid('spec.schedule', `'${String(spec.schedule)}' is not a valid schedule`, 'Write @every 5m, @hourly, @daily or a cron such as */10 * * * *');
    }
    schedule = spec.schedule.trim();
  }
  const root = componentBody(spec, 'spec', 0, new Set<string>(), false, TOPOLOGY_SPEC_FIELDS);
  const rootKey = explicitKey({ id: spec.id }, 'spec');
  if (rootKey !== undefined) root.key = rootKey;
  const rootKeyExpression = idExpression(spec, 'spec');
  if (rootKeyExpression !== undefined) root.keyExpression = rootKeyExpression;
  const label = spec.label;
  if (label !== undefined && label !== null) root.labels = { ...(typeof label === 'string' ? pairs(label, 'spec.label') : stringMap(label, 'spec.label')), ...root.labels };
  const groupBy = spec.groupBy === undefined || spec.groupBy === null ? null : groupByOf(spec.groupBy, 'spec.groupBy');
  return { metadata: resource ? metadataOf(whole.metadata) : null, schedule, root, groupBy };
}
