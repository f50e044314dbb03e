/**
 * Scraper specs (spec 002 §3, §5; spec 001 §3, §9): the kinds a spec may list, the ones this server runs, the
 * schedule choices and the JSON Schema the editor validates against. The server's save-time rules (roots, JSONPath,
 * secrets, connections) go further than a schema can; this file only says what may be written.
 */

/** Every source kind of a Mission Control ScrapeConfig, in the order spec 002 §3 lists them. */
export const SCRAPER_KINDS = [
  'kubernetes',
  'azure',
  'kubernetesFile',
  'sql',
  'trivy',
  'aws',
  'file',
  'githubActions',
  'http',
  'azureDevops',
  'custom',
] as const;
export type ScraperKind = (typeof SCRAPER_KINDS)[number];

/** The kinds this server has a source for; the others are accepted by the editor and refused at save. */
export const RUNNABLE_SCRAPER_KINDS = ['file', 'http', 'sql', 'kubernetes', 'kubernetesFile'] as const satisfies readonly ScraperKind[];
export type RunnableScraperKind = (typeof RUNNABLE_SCRAPER_KINDS)[number];

export function isScraperKind(key: string): key is ScraperKind {
  return (SCRAPER_KINDS as readonly string[]).includes(key);
}

export function isRunnableScraperKind(key: string): key is RunnableScraperKind {
  return (RUNNABLE_SCRAPER_KINDS as readonly string[]).includes(key);
}

/** Spec 001 §9; any other `@every` duration or cron expression is accepted too. */
export const SCRAPER_SCHEDULE_CHOICES = [
  '@every 30s',
  '@every 1m',
  '@every 5m',
  '@every 30m',
  '@hourly',
  '@every 6h',
  '@every 8h',
  '@daily',
  '@weekly',
] as const;

/**
 * Spec 001 §9 names it for the kubernetes scraper; the other kinds use it too, since 30m is also the default of the
 * agent's scrape interval there.
 */
export const DEFAULT_SCRAPER_SCHEDULE = '@every 30m';

export interface RequiredScraperField {
  /** The key inside one source entry, e.g. `clusterName` in `kubernetes[0]`. */
  field: string;
  label: string;
  /** Fields of which one is enough (`url` or `connection`); the form marks the first. */
  alternatives?: readonly string[];
}

/** Spec 002 §5, per kind; a kind without an entry requires nothing beyond being listed. */
export const scraperRequiredFields: Readonly<Record<ScraperKind, readonly RequiredScraperField[]>> = {
  kubernetes: [{ field: 'clusterName', label: 'Cluster name' }],
  file: [
    { field: 'format', label: 'Format' },
    { field: 'icon', label: 'Icon' },
  ],
  githubActions: [
    { field: 'owner', label: 'Owner' },
    { field: 'repository', label: 'Repository' },
  ],
  sql: [
    { field: 'type', label: 'Type' },
    { field: 'id', label: 'ID' },
    { field: 'connection', label: 'Connection', alternatives: ['url'] },
    { field: 'query', label: 'Query' },
  ],
  http: [
    { field: 'type', label: 'Type' },
    { field: 'id', label: 'ID' },
    { field: 'url', label: 'URL', alternatives: ['connection'] },
  ],
  trivy: [],
  azure: [],
  kubernetesFile: [],
  aws: [],
  azureDevops: [],
  custom: [],
};

type JsonSchema = Record<string, unknown>;

const text = (description?: string): JsonSchema => (description === undefined ? { type: 'string' } : { type: 'string', description });
const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const stringList: JsonSchema = { type: 'array', items: { type: 'string' } };
const oneOrMany: JsonSchema = { anyOf: [{ type: 'string' }, stringList] };
const duration: JsonSchema = { type: ['string', 'number'], description: 'A duration such as 30s, 1h or 7d' };
/** A secret-capable field (spec 001 §3): a value, a `valueFrom` reference, or a value the server sealed. */
const secretField: JsonSchema = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      properties: {
        name: { type: 'string' },
        value: { type: 'string' },
        valueFrom: { type: 'object' },
        $encrypted: { type: 'string' },
      },
    },
  ],
};
const headerList: JsonSchema = {
  anyOf: [
    { type: 'object', additionalProperties: secretField },
    { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: secretField, valueFrom: { type: 'object' } } } },
  ],
};

/** What every source entry of a Mission Control ScrapeConfig may carry; JSONPath fields start with `$`. */
const commonSourceProperties: Record<string, JsonSchema> = {
  id: text('A fixed value, or a JSONPath such as $.metadata.uid'),
  name: text('A fixed value, or a JSONPath such as $.metadata.name'),
  type: text('A fixed value (Class::Subtype), or a JSONPath'),
  class: text('A fixed value, or a JSONPath'),
  items: text('A JSONPath to a list; each element becomes an item'),
  format: text('json, yaml, xml or properties'),
  icon: text(),
  labels: stringMap,
  tags: { anyOf: [stringMap, { type: 'array', items: { type: 'object' } }] },
  properties: { type: 'array', items: { type: 'object' } },
  transform: { type: 'object' },
  full: { type: 'boolean' },
  timestampFormat: text(),
  createFields: stringList,
  deleteFields: stringList,
};

function source(description: string, properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', description, properties: { ...commonSourceProperties, ...properties }, ...extra };
}

const requiredOf = (kind: ScraperKind): string[] =>
  scraperRequiredFields[kind].filter((field) => field.alternatives === undefined).map((field) => field.field);

function requiredSchema(kind: ScraperKind): JsonSchema {
  const required = requiredOf(kind);
  const choices = scraperRequiredFields[kind].filter((field) => field.alternatives !== undefined);
  return {
    ...(required.length > 0 ? { required } : {}),
    ...(choices.length > 0
      ? { allOf: choices.map((field) => ({ anyOf: [field.field, ...(field.alternatives ?? [])].map((name) => ({ required: [name] })) })) }
      : {}),
  };
}

const SOURCE_SCHEMAS: Record<ScraperKind, JsonSchema> = {
  file: source(
    'JSON or YAML files (multi-document YAML too) matched by absolute glob paths under the server\'s scrape roots',
    { paths: stringList, url: text(), ignore: stringList },
    requiredSchema('file'),
  ),
  http: source(
    'An HTTP endpoint, named by url or by a stored connection (connection://namespace/name)',
    {
      url: text(),
      connection: text('connection://namespace/name'),
      method: text(),
      headers: headerList,
      body: text(),
      username: secretField,
      password: secretField,
      env: { type: 'array', items: { type: 'object' } },
    },
    requiredSchema('http'),
  ),
  sql: source(
    'Rows of a query; each row becomes an item',
    {
      connection: text('connection://namespace/name'),
      url: text(),
      driver: text(),
      query: text(),
      username: secretField,
      password: secretField,
      auth: { type: 'object', properties: { username: secretField, password: secretField } },
    },
    requiredSchema('sql'),
  ),
  kubernetes: source(
    'The Kubernetes API, through a kubeconfig connection or in-cluster when none is given',
    {
      clusterName: text(),
      kubeconfig: secretField,
      namespace: text(),
      exclusions: { type: 'object' },
      watch: { type: 'array' },
      event: { type: 'object' },
      relationships: { type: 'array' },
      selector: text(),
      fieldSelector: text(),
      useCache: { type: 'boolean' },
    },
    requiredSchema('kubernetes'),
  ),
  kubernetesFile: source(
    'Files read from the paths named per selector',
    {
      selector: { type: 'object' },
      files: { type: 'array', items: { type: 'object', properties: { path: oneOrMany, format: text() } } },
      kubeconfig: secretField,
      container: text(),
    },
    requiredSchema('kubernetesFile'),
  ),
  aws: source('Amazon Web Services (not run by this server)', {}, requiredSchema('aws')),
  azure: source('Microsoft Azure (not run by this server)', {}, requiredSchema('azure')),
  githubActions: source('GitHub Actions (not run by this server)', { owner: text(), repository: text() }, requiredSchema('githubActions')),
  azureDevops: source('Azure DevOps (not run by this server)', {}, requiredSchema('azureDevops')),
  trivy: source('Trivy (not run by this server)', {}, requiredSchema('trivy')),
  custom: source('Custom (not run by this server)', {}, requiredSchema('custom')),
};

const retentionSchema: JsonSchema = {
  type: 'object',
  properties: {
    changes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: text('A change type, e.g. diff'), age: duration, count: { type: 'integer', minimum: 0 } },
      },
    },
    types: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: text('A config type, e.g. Kubernetes::Pod'), createdAge: duration, updatedAge: duration, deletedAge: duration },
      },
    },
  },
};

const specSchema: JsonSchema = {
  type: 'object',
  description: 'The scraper spec: a schedule, retention and one or more sources per kind',
  properties: {
    schedule: { type: 'string', description: `${SCRAPER_SCHEDULE_CHOICES.join(', ')}, another @every duration or a cron`, examples: [...SCRAPER_SCHEDULE_CHOICES] },
    retention: retentionSchema,
    timeout: { ...duration, description: 'The longest one run may take (at most 1h; 15m when left out)' },
    full: { type: 'boolean' },
    logLevel: text(),
    ...Object.fromEntries(SCRAPER_KINDS.map((kind) => [kind, { type: 'array', items: { $ref: `#/$defs/${kind}` } }])),
  },
  anyOf: SCRAPER_KINDS.map((kind) => ({ required: [kind] })),
};

const resourceSchema: JsonSchema = {
  type: 'object',
  required: ['spec'],
  properties: {
    apiVersion: text('configs.flanksource.com/v1'),
    kind: { const: 'ScrapeConfig' },
    metadata: {
      type: 'object',
      properties: { name: text(), namespace: text(), labels: stringMap, annotations: stringMap },
    },
    spec: { $ref: '#/$defs/spec' },
  },
};

/**
 * A ScrapeConfig as the YAML editor holds it (JSON Schema draft 2020-12, as the canary schema): the whole Mission
 * Control resource or its bare spec. Keys it does not name are allowed, so a Mission Control ScrapeConfig pastes
 * unchanged.
 */
export const scrapeConfigJsonSchema: Readonly<JsonSchema> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'ScrapeConfig',
  if: { type: 'object', required: ['kind'], properties: { kind: { const: 'ScrapeConfig' } } },
  then: { $ref: '#/$defs/resource' },
  else: { $ref: '#/$defs/spec' },
  $defs: { resource: resourceSchema, spec: specSchema, ...SOURCE_SCHEMAS },
};
