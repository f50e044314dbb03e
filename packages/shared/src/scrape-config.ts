/**
 * Scraper specs (spec 002 §3, §5; spec 001 §3, §9): the kinds a spec may list, the ones this server runs, the
 * schedule choices and the JSON Schema the editor validates against. The server's save-time rules (roots, JSONPath,
 * secrets, connections) go further than a schema can; this file only says what may be written.
 */

/**
 * Every source kind of a Mission Control ScrapeConfig: the kinds spec 002 §3 lists, in its order, then the others
 * config-db reads (`spec.gcp`, `spec.exec`, …), so a spec naming one is recognised and refused by name, never taken
 * for an unknown key.
 */
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
  'exec',
  'gcp',
  'github',
  'postgres',
  'slack',
  'terraform',
  'clickhouse',
  'logs',
  'pubsub',
  'playwright',
] as const;
export type ScraperKind = (typeof SCRAPER_KINDS)[number];

/** The kinds this server has a source for; the others are accepted by the editor and refused at save. */
export const RUNNABLE_SCRAPER_KINDS = ['file', 'http', 'sql', 'kubernetes', 'kubernetesFile', 'exec'] as const satisfies readonly ScraperKind[];
export type RunnableScraperKind = (typeof RUNNABLE_SCRAPER_KINDS)[number];

/** Sources that run a script on the server: saving, changing or removing one needs the execute permission (admin). */
export const EXEC_SCRAPER_KINDS = ['exec'] as const satisfies readonly RunnableScraperKind[];

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

/**
 * What a ScrapeConfig itself must hold per kind, as config-db reads it: a spec pasted through the API or the YAML
 * editor needs no more. The form's own rules (spec 001 §5: a file scraper's format and icon, …) are the web form's.
 */
export const scraperRequiredFields: Readonly<Record<ScraperKind, readonly RequiredScraperField[]>> = {
  kubernetes: [{ field: 'clusterName', label: 'Cluster name' }],
  file: [{ field: 'paths', label: 'Paths' }],
  githubActions: [
    { field: 'owner', label: 'Owner' },
    { field: 'repository', label: 'Repository' },
  ],
  sql: [
    { field: 'connection', label: 'Connection', alternatives: ['url'] },
    { field: 'query', label: 'Query' },
  ],
  http: [{ field: 'url', label: 'URL', alternatives: ['connection'] }],
  exec: [{ field: 'script', label: 'Script' }],
  trivy: [],
  azure: [],
  kubernetesFile: [],
  aws: [],
  azureDevops: [],
  custom: [],
  gcp: [],
  github: [],
  postgres: [],
  slack: [],
  terraform: [],
  clickhouse: [],
  logs: [],
  pubsub: [],
  playwright: [],
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
  exec: source(
    'A bash script whose standard output (JSON or YAML) holds the items; run in the exec sandbox, saved only by administrators',
    { script: text(), env: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: secretField } } } },
    requiredSchema('exec'),
  ),
  gcp: source('Google Cloud (not run by this server)', {}, requiredSchema('gcp')),
  github: source('GitHub (not run by this server)', {}, requiredSchema('github')),
  postgres: source('PostgreSQL permissions (not run by this server)', {}, requiredSchema('postgres')),
  slack: source('Slack (not run by this server)', {}, requiredSchema('slack')),
  terraform: source('Terraform state (not run by this server)', {}, requiredSchema('terraform')),
  clickhouse: source('ClickHouse (not run by this server)', {}, requiredSchema('clickhouse')),
  logs: source('Log queries (not run by this server)', {}, requiredSchema('logs')),
  pubsub: source('Pub/Sub (not run by this server)', {}, requiredSchema('pubsub')),
  playwright: source('Playwright (not run by this server)', {}, requiredSchema('playwright')),
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

/**
 * How this server treats each field of a ScrapeConfig (ADR 0072): `runs` is honoured as config-db honours it, `inert`
 * is accepted and changes nothing (the note says why that is harmless), `refused` is a coded 400 at save naming the
 * field and, in the note, what to write instead. A field in no table is refused as unknown. The save rules, the
 * compatibility page and the web's hints read these tables, so they cannot drift apart.
 */
export type ScraperFieldSupport = 'runs' | 'inert' | 'refused';

export interface ScraperFieldRule {
  support: ScraperFieldSupport;
  /** What the server does with the field, or, when refused, why and the alternative. */
  note: string;
  /** A value that makes a refused field inert (`full: false` asks for nothing this server lacks). */
  inertWhen?: boolean | string;
  /** For a field that runs only with some values: the values that run; any other is refused with the note. */
  values?: readonly string[];
}

export type ScraperFieldTable = Readonly<Record<string, ScraperFieldRule>>;

const runs = (note: string, values?: readonly string[]): ScraperFieldRule => (values === undefined ? { support: 'runs', note } : { support: 'runs', note, values });
const inert = (note: string): ScraperFieldRule => ({ support: 'inert', note });
const refused = (note: string, inertWhen?: boolean | string): ScraperFieldRule =>
  inertWhen === undefined ? { support: 'refused', note } : { support: 'refused', note, inertWhen };

/** The keys of a spec besides its source lists. */
export const SCRAPE_SPEC_FIELDS: ScraperFieldTable = {
  schedule: runs('@every <duration>, @hourly/@daily/@weekly or a five-field cron; refused at save when it does not parse'),
  timeout: runs('The longest one run may take, at most 1h (15m when left out)'),
  retention: runs('changes (name, age, count) and types (name, createdAge, updatedAge, deletedAge)'),
  logLevel: inert('Logging is the server\'s own; the level is kept in the spec and changes nothing'),
  full: runs(
    "config-db's full mode for file, http, sql and exec sources: an item's config key is what is stored and its changes become the item's changes; access data (users, groups, roles, config_access, access_logs) and analysis are reported as run errors, not stored",
  ),
  crdSync: refused("config-db saves each scraped MissionControl::Playbook, ::Canary and ::ScrapeConfig item as that definition (playbooks, canaries, config_scrapers rows). Not run here: a scrape would then write runnable definitions past their own save rules and the rights of whoever may write them (exec needs execute). Apply those files with POST /api/apply, and leave crdSync out or false", false),
  system: refused('System scrapers are config-db\'s own; leave it out or false', false),
};

/** The fields of a source that say how a document becomes items (config-db's CustomScraperBase). */
const EXTRACT_FIELDS: ScraperFieldTable = {
  id: runs('A fixed value, or a JSONPath when it starts with $ or @'),
  name: runs('A fixed value or a JSONPath; the id when it finds nothing'),
  type: runs('A fixed value or a JSONPath; Class::Subtype, or a bare type whose class is itself'),
  class: runs('A fixed value or a JSONPath; prefixed to a bare type (Class::Type), as config-db defaults it to the type'),
  description: runs('A fixed value or a JSONPath'),
  status: runs('A fixed value or a JSONPath'),
  health: runs('A fixed value or a JSONPath: healthy, unhealthy, warning or unknown'),
  items: runs('A JSONPath, with or without the leading $ (.database is $.database); each match, or each element of one list, becomes an item'),
  format: runs('How the content is shown: json or yaml', ['json', 'yaml']),
  createFields: runs('JSONPaths to the creation time; the first that holds an ISO 8601 time wins'),
  deleteFields: runs('JSONPaths to the deletion time; an item with one is left out and soft-deleted'),
  timestampFormat: refused('Go time layouts are not read; times are read as ISO 8601 / RFC 3339, so leave it out'),
  labels: runs('A map of fixed values or JSONPaths'),
  tags: runs('A map, or a list of {name, value | jsonpath | label}; fixed values or JSONPaths'),
  icon: inert('The catalog picks an icon by type; the icon is kept in the spec'),
};

/** Sources whose items are the objects of an API (kubernetes) take none of the extraction fields. */
const OBJECT_SOURCE_EXTRACT_FIELDS: ScraperFieldTable = Object.fromEntries(
  Object.keys(EXTRACT_FIELDS).map((field) => [field, refused('Not read by kubernetes sources: items are named from the objects themselves (uid, kind, name); use transform or properties instead')]),
);

/** `transform` of any source. */
/** `exec[].connections.<kind>`: a stored connection named, and nothing inline. */
export const SCRAPER_EXEC_CONNECTION_FIELDS: ScraperFieldTable = {
  connection: runs('A stored connection: connection://namespace/name'),
  ...Object.fromEntries(
    ['accessKey', 'secretKey', 'sessionToken', 'region', 'endpoint', 'assumeRole', 'skipTLSVerify', 'clientID', 'clientSecret', 'tenantID', 'kubeconfig'].map((field) => [
      field,
      refused('Inline credentials are not handed to scripts: store them in a connection and name it with connection'),
    ]),
  ),
};

/** `exec[].connections`: the kinds handed to scripts. */
export const SCRAPER_EXEC_CONNECTION_KINDS: ScraperFieldTable = {
  aws: runs('An aws or s3 connection: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_DEFAULT_REGION, AWS_ENDPOINT_URL'),
  kubernetes: runs('A kubernetes connection: its kubeconfig in a file named by KUBECONFIG'),
  azure: runs('An azure connection: AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_TENANT_ID'),
  ...Object.fromEntries(['gcp', 'fromConfigItem', 'eksPodIdentity', 'serviceAccount', 'opensearch'].map((kind) => [kind, refused('Not handed to scripts here: aws, kubernetes and azure connections are')])),
};

/** The most pages one http source follows; maxPages 0 (config-db's "unlimited") means this many. */
export const MAX_PAGES = 1000;

/** `http[].pagination` (config-db's Pagination). */
export const SCRAPER_PAGINATION_FIELDS: ScraperFieldTable = {
  nextPageExpr: runs('CEL over response {body, headers, status, url} returning the next page\'s URL, a request {url, method, body, headers}, or "" or null to stop; a URL on another origin than the first page\'s stops the run with an error, since the request\'s credentials go to that origin only'),
  reduceExpr: runs('CEL over acc (the list so far) and page (a page\'s body) returning the new list; by default a page\'s list, or its value, items or Items list, or the page itself, is added'),
  perPage: runs('Each page becomes its own document instead of one merged list'),
  maxPages: runs(`The most pages read (0: ${MAX_PAGES}, this server's cap)`),
  delay: runs('A wait between page requests, at most 1m (e.g. 500ms)'),
};

/** `exec[].checkout` (duty's GitConnection). */
export const SCRAPER_CHECKOUT_FIELDS: ScraperFieldTable = {
  url: runs('The repository: https://, http://, file://, or host/path read as https://, without a password in it (a user name alone is kept)'),
  branch: runs('The branch or tag to check out (the default branch when left out)'),
  depth: runs('How many commits to fetch (1 when left out)'),
  type: inert('The kind of git host; the clone is the same for all'),
  connection: runs('A stored connection (git, github, azure_devops, http) whose user name and password or token git sends as a Basic header, only to requests on its own origin (a GitHub or Azure DevOps token without a URL: github.com or dev.azure.com); the checkout url must be on that origin'),
  username: refused('Credentials are not handed to git: name a stored connection in checkout.connection'),
  password: refused('Credentials are not handed to git: name a stored connection in checkout.connection'),
  certificate: refused('SSH keys are not handed to git: clone over https with a connection in checkout.connection'),
  destination: refused('The checkout is the folder the script starts in; copy files from there'),
};

export const SCRAPER_TRANSFORM_FIELDS: ScraperFieldTable = {
  expr: runs('CEL over `config`; returns a list of configs (or its toJSON()), each becoming an item, before id, name and type are read'),
  javascript: runs('JavaScript over `config` (and Underscore-style `_`) in a sandbox with no file, network or process access, 5 s and 128 MiB per document; its last statement (a list of configs or its JSON.stringify) is used as expr\'s is; not beside expr or gotemplate'),
  gotemplate: runs('A Go template over `config` (gomplate functions, no files or network) whose output is the JSON list of configs, as expr returns them; not beside expr'),
  jsonpath: refused('A JSONPath transform is not run; use items to pick the configs'),
  exclude: runs('Removes JSONPaths from the config, for every type or the types listed (globs)'),
  mask: runs('Replaces JSONPaths of the configs a CEL selector picks by a fixed value or md5sum'),
  relationship: runs('Links each config a CEL filter picks to this run\'s configs matched by id, name, type, namespace or labels (fixed, label or CEL)'),
  changes: runs('mapping (CEL filter → type, severity, summary, or action ignore) and exclude (CEL) over the changes a source reports'),
  locations: refused('Locations are not kept; use labels or tags'),
  aliases: refused('Aliases from templates are not kept; the source\'s own ids are'),
};

/** Object sources have no document to rewrite: their transform is everything but the script. */
const OBJECT_SOURCE_TRANSFORM_FIELDS: ScraperFieldTable = {
  ...SCRAPER_TRANSFORM_FIELDS,
  expr: refused('A transform script is not run on kubernetes objects; use exclude, mask, relationship or changes'),
  javascript: refused('A transform script is not run on kubernetes objects; use exclude, mask, relationship or changes'),
};

export const SCRAPER_EXCLUDE_FIELDS: ScraperFieldTable = {
  jsonpath: runs('The JSONPath to remove, with or without the leading $'),
  types: runs('Config types (globs such as Kubernetes::*) it applies to; all when left out'),
};

export const SCRAPER_MASK_FIELDS: ScraperFieldTable = {
  selector: runs('CEL over config, config_type, config_class, name, id, labels and tags; a mask without one applies to nothing, as in config-db'),
  jsonpath: runs('The JSONPath to mask, with or without the leading $'),
  value: runs('md5sum (the hex MD5 of the value) or the text to put in its place'),
};

/** A relationship entry: each selector field is {value}, {label} or {expr}. */
export const SCRAPER_RELATIONSHIP_FIELDS: ScraperFieldTable = {
  filter: runs('CEL: which configs of the run the entry applies to'),
  expr: runs('CEL returning a list of selectors ({id, name, type, namespace, labels}) or its toJSON()'),
  id: runs('The external id of the configs to link to'),
  external_id: runs('The external id of the configs to link to'),
  name: runs('The name of the configs to link to'),
  type: runs('The type of the configs to link to'),
  namespace: runs('The namespace tag of the configs to link to'),
  labels: runs('Labels the configs to link to must all carry'),
  parent: refused('Parents come from the source itself; leave parent out to link the configs instead'),
  scope: refused('Links are made among this scraper\'s configs; leave scope out'),
  agent: refused('Links are made among this scraper\'s configs; leave agent out'),
};

export const SCRAPER_CHANGE_FIELDS: ScraperFieldTable = {
  mapping: runs('Per change, the first mapping whose CEL filter holds sets its type, severity and summary, or ignores it'),
  exclude: runs('CEL expressions; a change for which one is true is dropped'),
};

export const SCRAPER_CHANGE_MAPPING_FIELDS: ScraperFieldTable = {
  filter: runs('CEL over the change (change_type, severity, summary, details, patch, diff, …) and its config, as config-db gives them'),
  type: runs('The change type to set'),
  severity: runs('The severity to set: info, low, medium, high, critical, warning or blocker'),
  summary: runs('The summary to set: a Go template over the same variables, as config-db renders it'),
  action: runs('ignore drops the change; move-up, copy-up, copy and move are refused', ['ignore']),
  config_id: refused('Changes stay on the config that reported them'),
  config_type: refused('Changes stay on the config that reported them'),
  scraper_id: refused('Changes stay on the config that reported them'),
  ancestor_type: refused('Changes stay on the config that reported them'),
  target: refused('Changes stay on the config that reported them'),
};

/** A property entry of `properties`; its text fields are templates over the config ({{.name}}, $(.config.x)). */
export const SCRAPER_PROPERTY_FIELDS: ScraperFieldTable = {
  filter: runs('CEL: which configs get the property'),
  name: runs('The property name'),
  label: runs('Shown instead of the name'),
  text: runs('A template over the config: {{.name}}, {{.config.path}} or $(.id)'),
  value: runs('A number'),
  unit: runs('The unit of value'),
  icon: runs('Shown next to the property'),
  type: runs('How the value is shown'),
  color: runs('Shown colour'),
  tooltip: runs('Shown on hover'),
  order: runs('Sort position'),
  headline: runs('Shown in the header'),
  hidden: runs('Kept but not shown'),
  min: runs('Lower bound of value'),
  max: runs('Upper bound of value'),
  status: runs('A status text'),
  lastTransition: runs('When the status last changed'),
  links: runs('Links {text, url, icon, tooltip, type, label}; text and url are templates over the config'),
};

const SOURCE_COMMON_FIELDS: ScraperFieldTable = {
  transform: runs('See the transform table'),
  properties: runs('Properties on each config (static, or templates over it), per CEL filter'),
};

const KIND_FIELDS: Readonly<Record<RunnableScraperKind, ScraperFieldTable>> = {
  file: {
    paths: runs('Globs of JSON or YAML files, absolute under a scrape root or relative to each'),
    format: runs('json or yaml (shown so; files are parsed by extension), or properties: the file read as one map of key = value', ['json', 'yaml', 'properties']),
    url: runs('A public git repository (https://…, http://… or host/path such as github.com/org/repo, with ?ref=branch, tag or commit): one commit is fetched for the run (depth 1, 60 s at most) and paths are globs relative to its root; file://, ssh and credentials are refused'),
    connection: refused('Files are read from the scrape roots only; use an http source with the connection'),
    ignore: refused('Not read by this server; narrow paths to the files to scrape'),
  },
  http: {
    url: runs('An http or https URL; redirects are not followed'),
    connection: runs('connection://namespace/name: its URL and credentials'),
    method: runs('Any HTTP method, in either case'),
    headers: runs('A map or [{name, value}]; values may be sealed'),
    body: runs('Sent as given (an object as JSON)'),
    env: runs('[{name, value} or {name, valueFrom: {secretKeyRef | configMapKeyRef: {name, key}}}]: the values {{.name}} reads in url, percent-encoded where they stand (never in the host); a valueFrom reads a stored connection\'s (secret) property and goes only to that connection\'s origin (ADR 0075)'),
    pagination: runs('Follows the pages a CEL nextPageExpr names (fields below), on the first page\'s origin only, at most maxPages (1,000 when 0 or left out)'),
    username: runs('Basic auth with password, unless headers or the connection give an Authorization; stored sealed'),
    password: runs('Basic auth with username; stored sealed'),
    bearer: refused('Name a connection that holds the token'),
    oauth: refused('Name a connection that holds the credentials'),
    tls: refused('TLS options are not read; the system trust store is used'),
    ntlm: refused('NTLM is not spoken by this server'),
    ntlmv2: refused('NTLM is not spoken by this server'),
    digest: refused('Digest authentication is not spoken by this server; name a connection with basic auth'),
  },
  sql: {
    connection: runs('connection://namespace/name, or a DSN (its password is stored sealed)'),
    url: runs('A DSN; its password is stored sealed'),
    driver: runs('postgres or mysql (sqlserver is refused: this server has no driver for it)', ['postgres', 'postgresql', 'pg', 'mysql', 'mariadb']),
    query: runs('Each row becomes a document; items cuts it further'),
    auth: runs('username and password for the DSN, stored sealed'),
    username: refused('Write it as auth.username'),
    password: refused('Write it as auth.password'),
  },
  kubernetes: {
    clusterName: runs('Names the cluster item and prefixes the others'),
    kubeconfig: runs('connection://namespace/name of a kubernetes connection; in-cluster when left out'),
    connection: runs('connection://namespace/name of a kubernetes connection'),
    namespace: runs('Only this namespace'),
    exclusions: runs('name, namespace, kind and labels (globs) to leave out'),
    event: runs('exclusions (reason, name, namespace) and severityKeywords (warn, error) of events'),
    selector: runs('A label selector'),
    fieldSelector: runs('A field selector'),
    useCache: inert('Every run lists afresh; the flag changes nothing'),
    watch: refused('Objects are listed on the schedule, not watched; leave watch out'),
    relationships: runs('[{kind, name, namespace}], each {value}, {label} (a label of the object) or {expr} (CEL over metadata and spec): every config of the catalog tagged with this clusterName that has that kind, name and namespace is linked as a parent of the object, as config-db looks them up; a lookup that comes out empty skips the object'),
  },
  kubernetesFile: {
    selector: runs('Which objects name the files'),
    files: runs('path (globs under the scrape roots) and format per file'),
    kubeconfig: refused('Files are read from the scrape roots, not from pods, so no cluster credential is used'),
    container: refused('config-db runs `cat` on each files[].path in this container of the selected pods (the pods/exec API, a request that runs a command in the cluster). Not run here: this server sends a cluster only GET requests and reads files[].path from the scrape roots, so no container is entered; leave container out'),
  },
  exec: {
    script: runs('A bash script run in the exec sandbox (ADR 0042) as an unprivileged user; its standard output (JSON or YAML) holds the configs'),
    env: runs('[{name, value}] given to the script as environment variables; secret-looking ones are stored sealed, all are scrubbed from what is stored'),
    connections: runs('{aws | kubernetes | azure: {connection: connection://namespace/name}}: the stored connection\'s credentials as the variables the CLI reads (AWS_*, AZURE_*) or a KUBECONFIG file in the private folder, scrubbed from what is stored; other kinds and inline credentials are refused'),
    checkout: runs('{url, branch, depth}: a public git repository (https://, http:// or file://) cloned as the sandbox user before the script, which then starts in it; connection and credentials are refused'),
    query: refused('Config queries are not written for scripts'),
    artifacts: refused('Artifacts are not kept'),
    setup: refused('Runtimes are not installed for scripts; use what the server has'),
  },
};

const OBJECT_SOURCE_KINDS: ReadonlySet<RunnableScraperKind> = new Set<RunnableScraperKind>(['kubernetes', 'kubernetesFile']);

/** Every field one source entry of this kind may hold, and what becomes of it. */
export function scraperSourceFields(kind: RunnableScraperKind): ScraperFieldTable {
  const extract = OBJECT_SOURCE_KINDS.has(kind) ? OBJECT_SOURCE_EXTRACT_FIELDS : EXTRACT_FIELDS;
  return { ...extract, ...SOURCE_COMMON_FIELDS, ...KIND_FIELDS[kind] };
}

/** The transform fields of a source of this kind. */
export function scraperTransformFields(kind: RunnableScraperKind): ScraperFieldTable {
  return OBJECT_SOURCE_KINDS.has(kind) ? OBJECT_SOURCE_TRANSFORM_FIELDS : SCRAPER_TRANSFORM_FIELDS;
}

/**
 * What 'Add Scraper' starts from: the smallest file scraper that names every field spec 002 §5 requires of one. Its
 * path is relative, so it is read under each of the server's scrape roots (OPSDECK_SCRAPE_ROOTS) and the first Save is
 * accepted whatever they are (#34 item 9); an absolute example would lie outside the roots of most installs, and the
 * roots themselves are not shown to the people who write scrapers (docs/editor-rights.md: no server paths).
 */
export const SCRAPER_EXAMPLE_SPEC = `schedule: "@every 30m"
file:
  - type: App::Config
    id: $.name
    name: $.name
    format: yaml
    icon: file
    paths:
      - configs/*.yaml
`;
