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

/** Mission Control's `id` expression (expr, javascript, template): accepted so pasted specs save, never evaluated. */
export interface TopologyIdExpressionSpec {
  expr?: string;
  javascript?: string;
  template?: string;
}

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

export interface TopologyCheckSelectorSpec {
  name?: string;
  namespace?: string;
  labelSelector?: string;
  types?: string[];
}

/** A `checks` entry. Only `selector` is run; an `inline` check is refused at save. */
export interface TopologyCheckSpec {
  selector?: TopologyCheckSelectorSpec;
  inline?: unknown;
}

/** A link as written; the save refuses one without `url`. */
export type TopologyPropertyLinkSpec = Partial<ComponentPropertyLink>;

/** A property's value read from a catalog item's content by a JSONPath. */
export interface TopologyConfigLookupSpec {
  config?: TopologyConfigSelectorSpec;
  id?: string;
  field: string;
  display?: unknown;
}

/** A property as written: what the component stores (less its namespace), or a value looked up in the catalog. */
export interface TopologyPropertySpec extends Omit<ComponentProperty, 'links' | 'namespace'> {
  links?: TopologyPropertyLinkSpec[];
  configLookup?: TopologyConfigLookupSpec;
}

/** A `lookup.catalog` entry: the selectors in `selector`, or the selector fields written on the entry itself. */
export interface TopologyCatalogLookupSpec extends TopologyConfigSelectorSpec {
  selector?: TopologyConfigSelectorSpec | TopologyConfigSelectorSpec[];
  display?: unknown;
}

export interface TopologyLookupSpec {
  catalog?: TopologyCatalogLookupSpec[];
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
}

export interface TopologyComponentSpec {
  name?: string;
  id?: string | TopologyIdExpressionSpec;
  externalID?: string;
  type?: string;
  icon?: string;
  text?: string;
  tooltip?: string;
  description?: string;
  owner?: string;
  lifecycle?: string;
  namespace?: string;
  hidden?: boolean;
  labels?: Record<string, string>;
  order?: number;
  properties?: TopologyPropertySpec[];
  checks?: TopologyCheckSpec[];
  configs?: TopologyConfigSelectorSpec[];
  components?: TopologyComponentSpec[];
  lookup?: TopologyLookupSpec;
  forEach?: TopologyForEachSpec;
  /** Mission Control fields accepted so pasted specs save, and ignored. */
  selectors?: unknown;
  relationships?: unknown;
  logs?: unknown;
  summary?: unknown;
  statusExpr?: unknown;
  healthExpr?: unknown;
  parentLookup?: unknown;
  display?: unknown;
}

/** `topologies.spec` alone; the root component is named after the topology and `components` are its children. */
export interface TopologySpec {
  type?: string;
  icon?: string;
  text?: string;
  tooltip?: string;
  owner?: string;
  schedule?: string;
  labels?: Record<string, string>;
  label?: Record<string, string> | string;
  id?: string | TopologyIdExpressionSpec;
  properties?: TopologyPropertySpec[];
  checks?: TopologyCheckSpec[];
  configs?: TopologyConfigSelectorSpec[];
  components?: TopologyComponentSpec[];
  groupBy?: unknown;
}

/** The whole Mission Control resource, as pasted. */
export interface TopologyResource {
  apiVersion?: string;
  kind?: 'Topology' | 'SystemTemplate';
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec: TopologySpec;
}

type JsonSchema = Record<string, unknown>;

const text = (description: string): JsonSchema => ({ type: 'string', description });
const stringMap = (description: string): JsonSchema => ({ type: 'object', description, additionalProperties: { type: 'string' } });
const stringOrList = (description: string): JsonSchema => ({ description, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
const ignored = (why: string): JsonSchema => ({ description: `Accepted so Mission Control specs paste unchanged; ignored.${why === '' ? '' : ` ${why}`}` });
const refused = (description: string): JsonSchema => ({ description: `Refused at save. ${description}`, not: {} });
const name: JsonSchema = { type: 'string', minLength: 1, maxLength: TOPOLOGY_NAME_MAX_LENGTH };
const templatesNote = `Strings may use ${TOPOLOGY_FOR_EACH_TEMPLATES.join(', ')}, replaced with the looked-up item's values by plain substitution (no template engine).`;

const idExpression: JsonSchema = {
  description: "Mission Control's id expression (expr, javascript or template): accepted so pasted specs save, never evaluated",
  type: 'object',
  properties: { expr: { type: 'string' }, javascript: { type: 'string' }, template: { type: 'string' } },
};

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
    inline: refused('Inline checks would let a topology editor make the server call anything: define a canary and select its checks by name or label.'),
  },
  required: ['selector'],
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
        "Reads the value from a catalog item's content: a number becomes value, anything else text. In forEach.properties the looked-up item is read when config and id are left out; elsewhere one of them is required and the first matching item is read. An item matching nothing leaves the property out.",
      required: ['field'],
      properties: {
        config: { $ref: '#/$defs/configSelector' },
        id: text('The id of the catalog item to read'),
        field: text("A JSONPath into the item's content, e.g. $.spec.replicas (no filters or scripts)"),
        display: ignored('Display expressions run code.'),
      },
    },
    lookup: refused('A property lookup runs checks: use configLookup to read a catalog item.'),
  },
};

const catalogLookup: JsonSchema = {
  type: 'object',
  description: 'The catalog items to make components of: the selectors in selector, or the selector fields written on the entry itself',
  properties: {
    ...configSelectorProperties,
    name: text('With selector: the name of this lookup. Without: the item name to match'),
    selector: { description: 'One selector or a list; an item matching any of them is looked up', anyOf: [{ $ref: '#/$defs/configSelector' }, { type: 'array', items: { $ref: '#/$defs/configSelector' } }] },
    display: ignored('Display expressions run code.'),
  },
};

const lookup: JsonSchema = {
  type: 'object',
  description:
    'Makes one component per matching catalog item (name, type and the config link from the item; key config:<item id>; labels the item tags merged with the component labels; icon the component icon, else the item type). Without a name on the component, the looked-up components take its place as siblings; with a name, the component is a grouping parent and they are its children. Only catalog runs: http, exec, sql, kubernetes, configDB and other lookups are refused at save, since no lookup may run code, SQL or requests.',
  properties: { catalog: { type: 'array', items: catalogLookup, minItems: 1, description: 'Catalog lookups; an item found by any of them is made into a component once' } },
  required: ['catalog'],
  additionalProperties: refused('This server builds topologies from the catalog only.'),
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
};

const ignoredComponentFields = ['selectors', 'relationships', 'logs', 'summary', 'statusExpr', 'healthExpr', 'parentLookup', 'display'] as const;

const component: JsonSchema = {
  type: 'object',
  description:
    'A component, nested to at most 10 levels. Its key (which keeps its id across runs) is id or externalID, else the names from the root joined with /; sibling names must differ.',
  properties: {
    ...componentFields,
    name: { ...name, description: 'The component name (required unless it has a lookup)' },
    id: { description: 'A text id is the stable key of the component; an id expression is ignored', anyOf: [{ type: 'string', minLength: 1 }, idExpression] },
    externalID: { type: 'string', minLength: 1, description: 'The stable key of the component' },
    description: text('Its description'),
    lifecycle: text('production, staging, dev…'),
    namespace: text('Its namespace'),
    hidden: { type: 'boolean', description: 'Not shown on the dashboard' },
    order: { type: 'number', description: 'Accepted; cards sort by health, then name' },
    components: { type: 'array', items: { $ref: '#/$defs/component' }, description: 'Child components' },
    lookup: { $ref: '#/$defs/lookup' },
    forEach: { $ref: '#/$defs/forEach' },
    ...Object.fromEntries(ignoredComponentFields.map((field) => [field, ignored('')])),
  },
  anyOf: [{ required: ['name'] }, { required: ['lookup'] }],
};

const specSchema: JsonSchema = {
  type: 'object',
  description: 'The topology spec: the root component (named after the topology) and its children',
  properties: {
    ...componentFields,
    schedule: text('How often it is rebuilt: @every 5m, @hourly, @daily or a cron'),
    label: { description: 'More labels of the root, as a map or key=value pairs joined by commas', anyOf: [{ type: 'string' }, stringMap('')] },
    id: { description: 'Accepted so pasted specs save, ignored: the root is keyed by the topology', anyOf: [{ type: 'string' }, idExpression] },
    components: { type: 'array', items: { $ref: '#/$defs/component' }, description: 'The components under the root' },
    groupBy: ignored(''),
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
 * spec alone. Keys it does not name are allowed, so specs from newer Mission Control versions still paste.
 */
export const topologySpecJsonSchema: Readonly<JsonSchema> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Topology',
  if: { type: 'object', required: ['kind'], properties: { kind: { enum: ['Topology', 'SystemTemplate'] } } },
  then: { $ref: '#/$defs/resource' },
  else: { $ref: '#/$defs/spec' },
  $defs: { resource: resourceSchema, spec: specSchema, component, property, check, checkSelector, configSelector, lookup, forEach },
};
