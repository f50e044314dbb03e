import type { ComponentProperty, ComponentPropertyLink } from './topology';

/**
 * Topology specs (issue #13): what `topologies.spec` may say, in the shape of Mission Control's `Topology` resource so
 * a team moving over pastes its YAML unchanged, and the JSON Schema the editor checks it against. The server's
 * save-time rules (apps/server/src/modules/topology/spec.ts) go further than a schema can: depth, duplicate names,
 * JSONPaths that parse.
 */

/** Spec 001 §3 limits of a component name, and of what one build may produce. */
export const TOPOLOGY_NAME_MAX_LENGTH = 255;
export const TOPOLOGY_MAX_DEPTH = 10;
export const TOPOLOGY_MAX_COMPONENTS = 5000;

/** The only templates a `forEach` may use, replaced by plain text substitution (no template engine runs). */
export const TOPOLOGY_FOR_EACH_TEMPLATES = ['{{.name}}', '{{.id}}', '{{.type}}', '{{.tags.KEY}}', '{{.labels.KEY}}'] as const;

/**
 * The check types a `lookup` (and a property's `lookup`) may run: each entry is a check of that type, judged by the
 * canary rules, whose `display` gives the components (or the property). Exec is not among them: a topology writer
 * may not run code.
 */
export const TOPOLOGY_CHECK_LOOKUP_TYPES = ['http', 'kubernetes', 'postgres', 'mysql', 'prometheus', 'elasticsearch', 'opensearch', 'alertmanager'] as const;
export type TopologyCheckLookupType = (typeof TOPOLOGY_CHECK_LOOKUP_TYPES)[number];

/** A catalog selector: a `configs` entry, a `lookup.catalog[].selector` entry, a `configLookup.config`. */
export interface TopologyConfigSelectorSpec {
  id?: string | string[];
  name?: string;
  namespace?: string;
  type?: string;
  types?: string | string[];
  class?: string;
  tags?: Record<string, string>;
  /** `key=value` pairs joined by commas, folded into `tags`. */
  tagSelector?: string;
  /** `key=value` pairs joined by commas: labels every item must carry. */
  labelSelector?: string;
}

/** A `selectors` entry: other components listed under this one. */
export interface TopologyComponentSelectorSpec {
  id?: string | string[];
  name?: string;
  namespace?: string;
  types?: string | string[];
  statuses?: string | string[];
  /** `key=value` pairs, or a bare key that must exist, joined by commas. */
  labelSelector?: string;
  /** Left out: this server's own components; `all`, or an agent id. */
  agent?: string;
}

export interface TopologyCheckSelectorSpec {
  name?: string;
  namespace?: string;
  labelSelector?: string;
  types?: string[];
}

/** A `checks` entry: `selector` runs (an `inline` check is refused at save). */
export interface TopologyCheckSpec {
  selector?: TopologyCheckSelectorSpec;
}

/** A link as written; the save refuses one without `url`. */
export type TopologyPropertyLinkSpec = Partial<ComponentPropertyLink>;

/** A property's value read from a catalog item: by a JSONPath into its content, or by a display over it. */
export interface TopologyConfigLookupSpec {
  config?: TopologyConfigSelectorSpec;
  id?: string;
  field?: string;
  display?: { expr?: string; template?: string; javascript?: string };
}

/** A property as written: what the component stores (less its namespace), or a value looked up in the catalog. */
export interface TopologyPropertySpec extends Omit<ComponentProperty, 'links' | 'namespace'> {
  links?: TopologyPropertyLinkSpec[];
  configLookup?: TopologyConfigLookupSpec;
}

/**
 * A `lookup.catalog` entry: the selectors in `selector`, or the selector fields written on the entry itself; `display`
 * and `test` run over the matching items as `results`.
 */
export interface TopologyCatalogLookupSpec extends TopologyConfigSelectorSpec {
  selector?: TopologyConfigSelectorSpec | TopologyConfigSelectorSpec[];
  display?: { expr?: string; template?: string; javascript?: string };
  test?: { expr?: string; template?: string; javascript?: string };
}

/** `configs` is Mission Control's spelling of `catalog`; both run the same. */
export interface TopologyLookupSpec {
  catalog?: TopologyCatalogLookupSpec[];
  configs?: TopologyCatalogLookupSpec[];
}

/** What every component made by a lookup also gets; its strings may use TOPOLOGY_FOR_EACH_TEMPLATES. */
export interface TopologyForEachSpec {
  type?: string;
  icon?: string;
  labels?: Record<string, string>;
  properties?: TopologyPropertySpec[];
  checks?: TopologyCheckSpec[];
  configs?: TopologyConfigSelectorSpec[];
  components?: TopologyComponentSpec[];
  selectors?: TopologyComponentSelectorSpec[];
}

export interface TopologyComponentSpec {
  name?: string;
  id?: string;
  externalID?: string;
  type?: string;
  icon?: string;
  text?: string;
  description?: string;
  owner?: string;
  lifecycle?: string;
  namespace?: string;
  hidden?: boolean;
  labels?: Record<string, string>;
  properties?: TopologyPropertySpec[];
  checks?: TopologyCheckSpec[];
  configs?: TopologyConfigSelectorSpec[];
  components?: TopologyComponentSpec[];
  lookup?: TopologyLookupSpec;
  forEach?: TopologyForEachSpec;
  selectors?: TopologyComponentSelectorSpec[];
  /** CEL over `summary` giving the status. */
  statusExpr?: string;
}

/** `topologies.spec` alone; the root component is named after the topology and `components` are its children. */
export interface TopologySpec {
  type?: string;
  icon?: string;
  text?: string;
  owner?: string;
  schedule?: string;
  labels?: Record<string, string>;
  label?: Record<string, string> | string;
  properties?: TopologyPropertySpec[];
  checks?: TopologyCheckSpec[];
  configs?: TopologyConfigSelectorSpec[];
  components?: TopologyComponentSpec[];
  statusExpr?: string;
  groupBy?: { tag?: string; selector?: TopologyConfigSelectorSpec };
}

/** The whole Mission Control resource, as pasted. */
export interface TopologyResource {
  apiVersion?: string;
  kind?: 'Topology' | 'SystemTemplate';
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec: TopologySpec;
}

/**
 * How this server treats one key of Mission Control's Topology (issue #32, ADR 0073): it runs, or the save is refused
 * with OD_TOPOLOGY_FIELD_NOT_RUN naming it and `note` saying what to write instead. Nothing is accepted and ignored: a
 * key no table names is refused the same way.
 */
export interface TopologyFieldRule {
  support: 'runs' | 'refused';
  note: string;
}

export type TopologyFieldTable = Readonly<Record<string, TopologyFieldRule>>;

const runs = (note: string): TopologyFieldRule => ({ support: 'runs', note });
const notRun = (note: string): TopologyFieldRule => ({ support: 'refused', note });

const ID_EXPRESSION_NOTE =
  'The stable key of the component: text, or an expression ({expr}, {template} or sandboxed {javascript}) over self (the component) and properties (name → value) whose non-empty text is the key (an empty one keeps the default)';

const STATUS_EXPR_NOTE =
  "CEL over summary (healthy, unhealthy, warning and info: the statuses under the component counted as Mission Control counts them; checks, incidents, insights) giving the component's status: healthy, unhealthy, warning or unknown. Worked out at every run of the topology; between runs the status stays as the run set it while the summary follows its inputs";
const HEALTH_EXPR_NOTE =
  "Components here have a status, not a separate health: canary-checker's healthExpr sets a health this server does not keep; use statusExpr";

/** The keys of a component, in `spec.components` and every level under it. */
export const TOPOLOGY_COMPONENT_FIELDS: TopologyFieldTable = {
  name: runs('The component name; left out, the component is stored without one, as canary-checker stores it (with a lookup, the looked-up components take its place)'),
  id: runs(ID_EXPRESSION_NOTE),
  externalID: runs('The stable key of the component'),
  type: runs('The component type'),
  icon: runs('Its icon'),
  text: runs('A short text shown on the card'),
  description: runs('Its description'),
  owner: runs('Who owns it'),
  lifecycle: runs('production, staging, dev…'),
  namespace: runs('Its namespace'),
  hidden: runs('Not shown on the dashboard, still counted by its parent'),
  labels: runs('Labels, used by the dashboard filters'),
  properties: runs('Properties shown on the card (fields below)'),
  checks: runs('Checks attached by selector (fields below)'),
  configs: runs('Catalog items linked by selector; their health counts toward the status'),
  components: runs('Child components, at most 10 levels'),
  lookup: runs("Makes components: one per catalog item, or those a check lookup's display returns (lookup kinds below)"),
  forEach: runs('What every looked-up component also gets (fields below)'),
  tooltip: notRun('A component has no tooltip here: put the text in description'),
  order: notRun('Cards sort by health, then name: leave order out'),
  selectors: runs(
    'Other live components (of any topology) listed under this one, as Mission Control shows them: each run links every component matching any selector (fields below); the component itself and its ancestors are never linked. They show as its children on the topology page; its status and summary stay those of its own checks, catalog items and components',
  ),
  canarySelector: notRun(
    "An old canary-checker field its Topology no longer has (its CRD drops it, so canary-checker ignores it): select checks with checks: [{selector: {labelSelector: ...}}] and inline ones with checks: [{inline: {...}}]",
  ),
  relationships: notRun('Component relationships are not run by this server: nest the component under its parent'),
  logs: notRun('Log selectors on components are not run by this server: log backends are routed in Settings → Logs'),
  summary: notRun('The summary is counted by this server from checks, incidents and insights: leave it out'),
  statusExpr: runs(STATUS_EXPR_NOTE),
  healthExpr: notRun(HEALTH_EXPR_NOTE),
  parentLookup: runs('Moves the component, after the build, under the component of this topology with that name, type and namespace, or that externalID (fields below); one not found stays where it is written and the run says so'),
  health: notRun('Health is worked out from the checks, catalog items and children: leave it out'),
  configID: notRun('Link catalog items with configs: [{id: <item id>}]'),
};

/** The keys of `spec` itself: the root component, named after the topology. */
export const TOPOLOGY_SPEC_FIELDS: TopologyFieldTable = {
  type: runs('The root component type'),
  icon: runs('Its icon'),
  text: runs('A short text shown on the card'),
  owner: runs('Who owns it'),
  schedule: runs('How often it is rebuilt: @every 5m, @hourly, @daily or a cron'),
  labels: runs('Labels of the root'),
  label: runs('More labels of the root, as a map or key=value pairs joined by commas'),
  properties: runs('Properties of the root'),
  checks: runs('Checks of the root'),
  configs: runs('Catalog items linked to the root'),
  components: runs('The components under the root'),
  description: runs('Its description'),
  lifecycle: runs('production, staging, dev…'),
  namespace: runs('Its namespace'),
  hidden: runs('Not shown on the dashboard'),
  id: runs('The root\'s stable key (the topology\'s own when left out or empty): text, or an expression as on components'),
  statusExpr: runs(`The root's status: ${STATUS_EXPR_NOTE}`),
  healthExpr: notRun(HEALTH_EXPR_NOTE),
  tooltip: notRun('A component has no tooltip here: put the text in text'),
  groupBy: runs(
    "One tree per value of a catalog tag, as canary-checker builds them: a root named '<topology> (<value>)' for each distinct value the live catalog items (those the selector matches, when given) carry, its catalog selectors, lookups and component selectors narrowed to that value (fields below)",
  ),
  push: notRun('Pushing the topology to another server is not done by this server: leave push out'),
};

/** The keys of `spec.groupBy`. */
export const TOPOLOGY_GROUP_BY_FIELDS: TopologyFieldTable = {
  tag: runs('The catalog tag whose values make the groups (required); each group narrows configs and catalog lookups to tag=value, and component selectors to the label tag=value'),
  selector: runs('A catalog selector (fields as in configs[]): only the items it matches give values'),
};

/** The keys of a property, in `properties` and `forEach.properties`. */
export const TOPOLOGY_PROPERTY_FIELDS: TopologyFieldTable = {
  name: runs('The property name (required)'),
  label: runs('Its label'),
  type: runs('text, number, url, badge, percentage… (free text)'),
  text: runs('The value shown as text'),
  value: runs('The numeric value'),
  min: runs('The low end of a gauge'),
  max: runs('The high end of a gauge'),
  unit: runs('The unit of value'),
  icon: runs('Its icon'),
  color: runs('Its colour'),
  tooltip: runs('Its tooltip'),
  headline: runs('Shown as a headline metric'),
  hidden: runs('Not shown on the card'),
  order: runs('Its place among the properties'),
  links: runs('Links shown with the property (url required)'),
  configLookup: runs("Reads the value from a catalog item by a JSONPath or a display (fields below)"),
  lookup: runs(
    "A check lookup (http, kubernetes, postgres…) whose display gives the property: a value, a list of properties added to the component, or a list of {name, properties} merged into the child components of those names",
  ),
  summary: notRun('Property summary templates are not run by this server: write the text'),
  status: notRun('A property status is not kept: leave it out'),
  lastTransition: notRun('A property transition time is not kept: leave it out'),
};

/** The keys of a property link. */
export const TOPOLOGY_LINK_FIELDS: TopologyFieldTable = {
  url: runs('Where it goes (required)'),
  type: runs('The kind of link'),
  text: runs('What it shows'),
  label: runs('Its label'),
  icon: runs('Its icon'),
  tooltip: runs('Its tooltip'),
};

/** The keys of a `configLookup`. */
export const TOPOLOGY_CONFIG_LOOKUP_FIELDS: TopologyFieldTable = {
  config: runs('The catalog item to read, by selector'),
  id: runs('The id of the catalog item to read'),
  field: runs("A JSONPath into the item's content, e.g. $.spec.replicas (no filters or scripts); not beside display"),
  display: runs('expr (CEL), template (Go template) or javascript (sandboxed) over config (the content), config_type, id, name, type, tags and labels; its text is the property text; not beside field'),
};

/** The keys of a check selector (`checks[].selector`). */
export const TOPOLOGY_CHECK_SELECTOR_FIELDS: TopologyFieldTable = {
  name: runs('The check name'),
  namespace: runs("The check's canary namespace"),
  labelSelector: runs('Labels as key=value pairs, or a bare key that must exist, joined by commas'),
  types: runs('Check types (http, dns, …)'),
};

/** The keys of a `checks` entry. */
export const TOPOLOGY_CHECK_FIELDS: TopologyFieldTable = {
  selector: runs('Every live check matching name, namespace, labelSelector and types'),
  inline: runs(
    'A canary spec (schedule and check lists, as a canary is written): the topology keeps a canary of it named `<topology>-<component>` and attaches its checks; exec checks and secrets are refused (save them in a canary of their own and select it), and so is inline inside forEach',
  ),
};

/** The keys of a catalog selector: a `configs` entry, a `configLookup.config`, a lookup's `selector`. */
export const TOPOLOGY_CONFIG_SELECTOR_FIELDS: TopologyFieldTable = {
  id: runs('Catalog item ids'),
  name: runs('The item name'),
  namespace: runs('The item namespace (its namespace tag)'),
  type: runs('One config type, Class::Subtype'),
  types: runs('Config types, Class::Subtype'),
  class: runs('The config class, the first part of the type'),
  tags: runs('Tags every item must carry'),
  tagSelector: runs('Tags as key=value pairs joined by commas'),
  labelSelector: runs('Labels as key=value pairs joined by commas'),
};

/** The lookup kinds of `lookup`. */
export const TOPOLOGY_LOOKUP_KINDS: TopologyFieldTable = {
  catalog: runs('One component per catalog item matching the selectors, or those a display over the items returns'),
  configs: runs("Mission Control's spelling of catalog: the same selectors"),
  ...Object.fromEntries(
    TOPOLOGY_CHECK_LOOKUP_TYPES.map((kind) => [
      kind,
      runs(
        `${kind} checks, written and judged as in a canary (no secrets, no sealed values), run when the topology is built; display must return the components as JSON: a list of {name, type, icon, text, description, owner, lifecycle, namespace, labels, properties, selectors, statusExpr, status, status_reason}; any other field fails the build by name. A lookup that fails fails the build, which then leaves the stored tree as it was`,
      ),
    ]),
  ),
  ...Object.fromEntries(
    ['sql', 'mssql', 'exec', 'configDB', 'mongodb', 'redis', 'cloudwatch', 'folder', 's3', 'gcs'].map((kind) => [
      kind,
      notRun(
        kind === 'exec'
          ? 'Lookups never run commands: scrape the data into the catalog with an exec scraper (admins only) and use lookup.catalog'
          : `${kind} lookups are not run by this server: use ${TOPOLOGY_CHECK_LOOKUP_TYPES.join(', ')} or lookup.catalog`,
      ),
    ]),
  ),
};

/** The keys of a `lookup.catalog` (or `lookup.configs`) entry beside the selector fields. */
export const TOPOLOGY_CATALOG_LOOKUP_FIELDS: TopologyFieldTable = {
  ...TOPOLOGY_CONFIG_SELECTOR_FIELDS,
  name: runs('With selector: the name of this lookup. Without: the item name to match'),
  selector: runs('One selector or a list; an item matching any of them is looked up'),
  display: runs(
    "expr (CEL), template (Go template) or javascript (sandboxed) over results, the matching items as canary-checker's catalog check gives them (id, name, type, config_class, status, health, ready, description, config, labels, tags, properties, agent_id, created_at, updated_at; scraper_id, external_id, source, parent_id and path when set), run once per build: the components it returns as JSON take the place of one per item, read as a check lookup's display is (name required; type, icon, text, description, owner, lifecycle, namespace, labels, properties; other fields are left out as there)",
  ),
  test: runs(
    'CEL, a Go template or javascript over results, as a check\'s test: a build whose test is not true fails and leaves the stored tree as it was; an empty test ({}) does nothing',
  ),
  transform: notRun('Lookup transforms are not run on catalog lookups: return the components from display, or shape them with forEach'),
};

/** The keys of a component's `parentLookup`: which component of the same topology becomes its parent. */
export const TOPOLOGY_PARENT_LOOKUP_FIELDS: TopologyFieldTable = {
  name: runs('The parent\'s name (matched with type and namespace, each empty when left out)'),
  type: runs('The parent\'s type'),
  namespace: runs('The parent\'s namespace'),
  externalID: runs('The parent\'s id or externalID; used instead of name, type and namespace when given'),
};

/** The keys of `forEach`. */
export const TOPOLOGY_FOR_EACH_FIELDS: TopologyFieldTable = {
  type: runs('Overrides the item type'),
  icon: runs('Overrides the icon'),
  labels: runs('Labels added to each component'),
  properties: runs('Properties of each component'),
  checks: runs('Checks of each component'),
  configs: runs('More catalog items linked to each component'),
  components: runs('Children of each component'),
  selectors: runs('Component selectors of each component, as on components; their strings may use the forEach templates'),
  relationships: notRun('Component relationships are not run by this server: list the children in forEach.components'),
};

/** The keys of a component selector (`selectors[]`), Mission Control's resource selector as it applies to components. */
export const TOPOLOGY_COMPONENT_SELECTOR_FIELDS: TopologyFieldTable = {
  id: runs('Component ids'),
  name: runs('The component name, matched exactly'),
  namespace: runs('The component namespace'),
  types: runs('Component types'),
  statuses: runs('Component statuses: healthy, unhealthy, warning, unknown'),
  labelSelector: runs('Labels as key=value pairs, or a bare key that must exist, joined by commas'),
  agent: runs("Whose components: left out, this server's own (agent_id empty), as Mission Control does; all, every agent's; or an agent id"),
  tagSelector: notRun('Components carry labels, not tags: use labelSelector'),
  fieldSelector: notRun('Field selectors are not run on components by this server: use name, namespace, types and statuses'),
  search: notRun('Search expressions are not run on component selectors by this server: use the fields'),
  health: notRun('Components here have a status, not a health: use statuses'),
  scope: notRun('Scopes are not run by this server: name the components with the fields'),
  cache: notRun('Selectors are read on every run: leave cache out'),
  limit: notRun('Every matching component is linked (at most 5000): leave limit out'),
  includeDeleted: notRun('Deleted components are never linked: leave includeDeleted out'),
};

/** Every table with the place it judges, as docs/compatibility.md lists them. */
export const TOPOLOGY_FIELD_TABLES: ReadonlyArray<{ heading: string; prefix: string; table: TopologyFieldTable }> = [
  { heading: 'Lookup kinds', prefix: 'lookup.', table: TOPOLOGY_LOOKUP_KINDS },
  { heading: 'Spec fields (the root component)', prefix: 'spec.', table: TOPOLOGY_SPEC_FIELDS },
  { heading: 'groupBy', prefix: 'spec.groupBy.', table: TOPOLOGY_GROUP_BY_FIELDS },
  { heading: 'Component fields', prefix: '', table: TOPOLOGY_COMPONENT_FIELDS },
  { heading: 'Catalog lookup entries', prefix: 'lookup.catalog[].', table: TOPOLOGY_CATALOG_LOOKUP_FIELDS },
  { heading: 'forEach', prefix: 'forEach.', table: TOPOLOGY_FOR_EACH_FIELDS },
  { heading: 'parentLookup', prefix: 'parentLookup.', table: TOPOLOGY_PARENT_LOOKUP_FIELDS },
  { heading: 'Component selectors', prefix: 'selectors[].', table: TOPOLOGY_COMPONENT_SELECTOR_FIELDS },
  { heading: 'Properties', prefix: 'properties[].', table: TOPOLOGY_PROPERTY_FIELDS },
  { heading: 'Property links', prefix: 'properties[].links[].', table: TOPOLOGY_LINK_FIELDS },
  { heading: 'configLookup', prefix: 'properties[].configLookup.', table: TOPOLOGY_CONFIG_LOOKUP_FIELDS },
  { heading: 'Catalog selectors', prefix: 'configs[].', table: TOPOLOGY_CONFIG_SELECTOR_FIELDS },
  { heading: 'Checks', prefix: 'checks[].', table: TOPOLOGY_CHECK_FIELDS },
  { heading: 'Check selectors', prefix: 'checks[].selector.', table: TOPOLOGY_CHECK_SELECTOR_FIELDS },
];

type JsonSchema = Record<string, unknown>;

const text = (description: string): JsonSchema => ({ type: 'string', description });
const stringMap = (description: string): JsonSchema => ({ type: 'object', description, additionalProperties: { type: 'string' } });
const stringOrList = (description: string): JsonSchema => ({ description, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
const refused = (description: string): JsonSchema => ({ description: `Refused at save. ${description}`, not: {} });
const name: JsonSchema = { type: 'string', minLength: 1, maxLength: TOPOLOGY_NAME_MAX_LENGTH };
const templatesNote = `Strings may use ${TOPOLOGY_FOR_EACH_TEMPLATES.join(', ')} (also written $(.component.name) or {{.component.name}}, as Mission Control does), replaced with the looked-up item's values by plain substitution (no template engine).`;

/** The keys a table refuses, each as a schema that fails with the table's note. */
function refusedFields(table: TopologyFieldTable): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(table).flatMap(([key, rule]) => (rule.support === 'refused' ? [[key, refused(rule.note)]] : [])));
}

/** A check lookup entry: a check of its type, with the display that returns the components. */
const checkLookup: JsonSchema = {
  type: 'object',
  description: 'A check written as in a canary (no secrets); its display (expr or template) must return the components or the property as JSON',
  required: ['display'],
  properties: { name: text('The name of this lookup'), display: { type: 'object', description: 'expr (CEL), template (Go template) or javascript (sandboxed) returning JSON' } },
};

const checkLookups = (description: string): Record<string, JsonSchema> =>
  Object.fromEntries(TOPOLOGY_CHECK_LOOKUP_TYPES.map((type) => [type, { type: 'array', items: checkLookup, minItems: 1, description: `${type} ${description}` }]));

const configSelectorProperties: Record<string, JsonSchema> = {
  id: stringOrList('Catalog item ids'),
  name: text('The item name'),
  namespace: text('The item namespace (its namespace tag)'),
  type: text('One config type, Class::Subtype (e.g. Kubernetes::Pod)'),
  types: stringOrList('Config types, Class::Subtype'),
  class: text('The config class, the first part of the type (e.g. Kubernetes)'),
  tags: stringMap('Tags every item must carry'),
  tagSelector: text('Tags every item must carry, as key=value pairs joined by commas'),
  labelSelector: text('Labels every item must carry, as key=value pairs joined by commas'),
};

const configSelector: JsonSchema = {
  type: 'object',
  description: 'Catalog items matching every field given (at least one field)',
  properties: configSelectorProperties,
  minProperties: 1,
};

const componentSelector: JsonSchema = {
  type: 'object',
  description: 'Other live components matching every field given (at least one field); each is listed under this component',
  properties: {
    id: stringOrList('Component ids'),
    name: text('The component name, matched exactly'),
    namespace: text('The component namespace'),
    types: stringOrList('Component types'),
    statuses: { description: 'Component statuses', anyOf: [{ enum: ['healthy', 'unhealthy', 'warning', 'unknown'] }, { type: 'array', items: { enum: ['healthy', 'unhealthy', 'warning', 'unknown'] } }] },
    labelSelector: text('Labels every component must carry, as key=value pairs (or a bare key that must exist) joined by commas'),
    agent: text("Left out: this server's own components; all: every agent's; or an agent id"),
    ...refusedFields(TOPOLOGY_COMPONENT_SELECTOR_FIELDS),
  },
  minProperties: 1,
};

const checkSelector: JsonSchema = {
  type: 'object',
  description: 'Every live check matching all fields given (at least one field)',
  properties: {
    name: text('The check name'),
    namespace: text("The check's canary namespace"),
    labelSelector: text('Labels every check must carry, as key=value pairs (or a bare key that must exist) joined by commas'),
    types: { type: 'array', items: { type: 'string' }, description: 'Check types (http, dns, …)' },
  },
  minProperties: 1,
};

const check: JsonSchema = {
  type: 'object',
  description: 'Checks attached to the component; their health counts toward its status',
  properties: {
    selector: { $ref: '#/$defs/checkSelector' },
    inline: {
      type: 'object',
      description: 'A canary spec the topology keeps as a canary of its own (<topology>-<component>); its checks are attached. Exec checks and secrets are refused',
    },
    ...refusedFields(TOPOLOGY_CHECK_FIELDS),
  },
  minProperties: 1,
};

const link: JsonSchema = {
  type: 'object',
  required: ['url'],
  properties: { type: text('The kind of link'), url: text('Where it goes'), text: text('What it shows'), label: text('Its label'), icon: text('Its icon'), tooltip: text('Its tooltip') },
};

const property: JsonSchema = {
  type: 'object',
  description: 'A property shown on the card',
  required: ['name'],
  properties: {
    name: { ...name, description: 'The property name (required)' },
    label: text('What the card shows as its label'),
    type: text('text, number, url, badge, percentage… (free text)'),
    text: text('The value shown as text'),
    value: { type: 'number', description: 'The numeric value' },
    min: { type: 'number', description: 'The low end of a gauge' },
    max: { type: 'number', description: 'The high end of a gauge' },
    unit: text('The unit of value (bytes, millicores, %…)'),
    icon: text('Its icon'),
    color: text('Its colour'),
    tooltip: text('Its tooltip'),
    headline: { type: 'boolean', description: 'Shown as a headline metric on the card' },
    hidden: { type: 'boolean', description: 'Not shown on the card' },
    order: { type: 'number', description: 'Its place among the properties' },
    links: { type: 'array', items: link, description: 'Links shown with the property' },
    configLookup: {
      type: 'object',
      description:
        "Reads the value from a catalog item: field (a JSONPath into its content; a number becomes value, anything else text) or display (its text). In forEach.properties the looked-up item is read when config and id are left out; elsewhere one of them is required and the first matching item is read. An item matching nothing leaves the property out.",
      oneOf: [{ required: ['field'] }, { required: ['display'] }],
      properties: {
        config: { $ref: '#/$defs/configSelector' },
        id: text('The id of the catalog item to read'),
        field: text("A JSONPath into the item's content, e.g. $.spec.replicas (no filters or scripts)"),
        display: {
          type: 'object',
          description: 'expr (CEL), template (Go template) or javascript (sandboxed) over config, config_type, id, name, type, tags and labels',
          properties: { expr: text('CEL'), template: text('A Go template'), javascript: text('JavaScript, run in a sandbox') },
          additionalProperties: false,
        },
        ...refusedFields(TOPOLOGY_CONFIG_LOOKUP_FIELDS),
      },
    },
    lookup: {
      type: 'object',
      description: "Check lookups whose display gives the property: a value, a list of properties added to the component, or a list of {name, properties} merged into the child components of those names",
      properties: checkLookups('checks whose display gives the property'),
      minProperties: 1,
      additionalProperties: refused(`A property lookup runs ${TOPOLOGY_CHECK_LOOKUP_TYPES.join(', ')} checks.`),
    },
    ...refusedFields(TOPOLOGY_PROPERTY_FIELDS),
  },
};

const catalogLookup: JsonSchema = {
  type: 'object',
  description: 'The catalog items to make components of: the selectors in selector, or the selector fields written on the entry itself',
  properties: {
    ...configSelectorProperties,
    name: text('With selector: the name of this lookup. Without: the item name to match'),
    selector: { description: 'One selector or a list; an item matching any of them is looked up', anyOf: [{ $ref: '#/$defs/configSelector' }, { type: 'array', items: { $ref: '#/$defs/configSelector' } }] },
    display: {
      type: 'object',
      description: 'expr (CEL), template (Go template) or javascript (sandboxed) over results (the matching items), returning the components as JSON in place of one per item',
      properties: { expr: text('CEL'), template: text('A Go template'), javascript: text('JavaScript, run in a sandbox') },
      additionalProperties: false,
    },
    test: {
      type: 'object',
      description: 'expr (CEL), template or javascript over results that must be true, else the build fails; empty ({}) does nothing',
      properties: { expr: text('CEL'), template: text('A Go template'), javascript: text('JavaScript, run in a sandbox') },
      additionalProperties: false,
    },
    ...refusedFields(TOPOLOGY_CATALOG_LOOKUP_FIELDS),
  },
};

const lookup: JsonSchema = {
  type: 'object',
  description:
    "Makes components: one per matching catalog item (name, type and the config link from the item; key config:<item id>; labels the item tags merged with the component labels; icon the component icon, else the item type), and those each catalog lookup's display (over the items) or check lookup's display returns (name required; type, icon, text, description, owner, lifecycle, namespace, labels, properties, selectors, statusExpr, and status with status_reason, which stand until the next run unless a statusExpr decides (a text other than healthy, unhealthy, warning or unknown makes it unknown with the text as the reason); any other field fails the build by name). Without a name on the component, the looked-up components take its place as siblings; with a name, the component is a grouping parent and they are its children. The kinds not listed are refused at save.",
  properties: {
    catalog: { type: 'array', items: catalogLookup, minItems: 1, description: 'Catalog lookups; an item found by any of them is made into a component once' },
    configs: { type: 'array', items: catalogLookup, minItems: 1, description: "Mission Control's spelling of catalog" },
    ...checkLookups('checks whose display returns the components'),
    ...refusedFields(TOPOLOGY_LOOKUP_KINDS),
  },
  minProperties: 1,
  additionalProperties: refused('This server looks up catalog items and runs the check lookups listed.'),
};

const forEach: JsonSchema = {
  type: 'object',
  description: `What every component made by the lookup also gets. ${templatesNote}`,
  properties: {
    type: text('Overrides the item type'),
    icon: text('Overrides the icon'),
    labels: stringMap('Labels added to each component'),
    properties: { type: 'array', items: { $ref: '#/$defs/property' }, description: 'Properties of each component; a configLookup without config reads the looked-up item' },
    checks: { type: 'array', items: { $ref: '#/$defs/check' }, description: 'Checks of each component, e.g. selector: {name: "{{.name}}"}' },
    configs: { type: 'array', items: { $ref: '#/$defs/configSelector' }, description: 'More catalog items linked to each component' },
    components: { type: 'array', items: { $ref: '#/$defs/component' }, description: 'Children of each component' },
    selectors: { type: 'array', items: { $ref: '#/$defs/componentSelector' }, description: 'Component selectors of each component' },
    ...refusedFields(TOPOLOGY_FOR_EACH_FIELDS),
  },
};

const componentFields: Record<string, JsonSchema> = {
  type: text('The component type: service, API, website, database…'),
  icon: text('Its icon'),
  text: text('A short text shown on the card'),
  tooltip: text('Its tooltip'),
  owner: text('Who owns it'),
  labels: stringMap('Labels (text values), used by the dashboard filters'),
  properties: { type: 'array', items: { $ref: '#/$defs/property' }, description: 'Properties shown on the card' },
  checks: { type: 'array', items: { $ref: '#/$defs/check' }, description: 'Checks attached by selector' },
  configs: { type: 'array', items: { $ref: '#/$defs/configSelector' }, description: 'Catalog items linked by selector; their health counts toward the status' },
  statusExpr: { type: 'string', minLength: 1, description: STATUS_EXPR_NOTE },
};

const idExpression: JsonSchema = {
  type: 'object',
  description: 'An id worked out per component: one of expr (CEL), template (Go template) or javascript (sandboxed), over self and properties',
  properties: { expr: text('CEL'), template: text('A Go template'), javascript: text('JavaScript, run in a sandbox') },
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
};

const component: JsonSchema = {
  type: 'object',
  description:
    'A component, nested to at most 10 levels. Its key (which keeps its id across runs) is id or externalID, else the names from the root joined with /; sibling names must differ.',
  properties: {
    ...componentFields,
    name: { type: 'string', maxLength: TOPOLOGY_NAME_MAX_LENGTH, description: 'The component name; left out, the component has none (with a lookup, the looked-up components take its place)' },
    selectors: { type: 'array', items: { $ref: '#/$defs/componentSelector' }, description: 'Other components listed under this one: every live component matching any selector' },
    id: { anyOf: [{ type: 'string', minLength: 1 }, { $ref: '#/$defs/idExpression' }], description: ID_EXPRESSION_NOTE },
    externalID: { type: 'string', minLength: 1, description: 'The stable key of the component' },
    description: text('Its description'),
    lifecycle: text('production, staging, dev…'),
    namespace: text('Its namespace'),
    hidden: { type: 'boolean', description: 'Not shown on the dashboard' },
    components: { type: 'array', items: { $ref: '#/$defs/component' }, description: 'Child components' },
    lookup: { $ref: '#/$defs/lookup' },
    forEach: { $ref: '#/$defs/forEach' },
    parentLookup: {
      type: 'object',
      description: 'Moves the component under the component of this topology it names, after the build',
      properties: {
        name: text('The parent\'s name'),
        type: text('The parent\'s type'),
        namespace: text('The parent\'s namespace'),
        externalID: text('The parent\'s id or externalID, used instead of the others'),
      },
      additionalProperties: false,
      anyOf: [{ required: ['name'] }, { required: ['externalID'] }],
    },
    ...refusedFields(TOPOLOGY_COMPONENT_FIELDS),
  },
};

const specSchema: JsonSchema = {
  type: 'object',
  description: 'The topology spec: the root component (named after the topology) and its children',
  properties: {
    ...componentFields,
    schedule: text('How often it is rebuilt: @every 5m, @hourly, @daily or a cron'),
    label: { description: 'More labels of the root, as a map or key=value pairs joined by commas', anyOf: [{ type: 'string' }, stringMap('')] },
    id: { anyOf: [{ type: 'string', minLength: 1 }, { $ref: '#/$defs/idExpression' }], description: "The root's stable key: text, or an expression as on components" },
    components: { type: 'array', items: { $ref: '#/$defs/component' }, description: 'The components under the root' },
    groupBy: {
      type: 'object',
      description: "One tree per value of a catalog tag, each root named '<topology> (<value>)'",
      required: ['tag'],
      properties: { tag: { type: 'string', minLength: 1, description: 'The catalog tag' }, selector: { $ref: '#/$defs/configSelector' }, ...refusedFields(TOPOLOGY_GROUP_BY_FIELDS) },
    },
    ...refusedFields(TOPOLOGY_SPEC_FIELDS),
  },
};

const resourceSchema: JsonSchema = {
  type: 'object',
  description: 'The whole Mission Control Topology resource',
  required: ['spec'],
  properties: {
    apiVersion: text('canaries.flanksource.com/v1'),
    kind: { enum: ['Topology', 'SystemTemplate'], description: 'Topology, or SystemTemplate as newer Mission Control versions call it' },
    metadata: {
      type: 'object',
      description: 'Fills the name, namespace and labels of a new topology that leaves them out',
      properties: { name: text('The topology name'), namespace: text('The topology namespace'), labels: stringMap('The topology labels'), annotations: stringMap('') },
    },
    spec: { $ref: '#/$defs/spec' },
  },
};

/**
 * A topology spec as the YAML editor holds it (JSON Schema draft 2020-12): the whole Mission Control resource or its
 * spec alone. The keys this server refuses fail here with the reason; a key no table names is refused by the save.
 */
export const topologySpecJsonSchema: Readonly<JsonSchema> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Topology',
  if: { type: 'object', required: ['kind'], properties: { kind: { enum: ['Topology', 'SystemTemplate'] } } },
  then: { $ref: '#/$defs/resource' },
  else: { $ref: '#/$defs/spec' },
  $defs: { resource: resourceSchema, spec: specSchema, component, property, check, checkSelector, componentSelector, configSelector, lookup, forEach, idExpression },
};
