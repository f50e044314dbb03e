import {
  PLAYBOOK_ACTION_DEFAULT_TIMEOUT,
  PLAYBOOK_ACTION_MAX_TIMEOUT,
  PLAYBOOK_ACTION_TYPES,
  PLAYBOOK_MAX_DELAY,
  PLAYBOOK_PARAMETER_SIZES,
  PLAYBOOK_PARAMETER_TYPES,
  PLAYBOOK_TEXT_FORMATS,
  PLAYBOOK_TRIGGER_EVENTS,
  PLAYBOOK_WEBHOOK_PATH_PATTERN,
  type PlaybookTriggerKind,
} from './playbooks';

/**
 * The JSON Schema of a playbook spec (issue #14), as the YAML editor checks it while it is typed and as
 * `GET /api/schemas/playbook-spec.schema.json` serves it. The server's save-time rules
 * (apps/server/src/modules/playbooks/spec.ts) go further than a schema can: unique names, templates and CEL that parse,
 * duration limits, regexes that compile.
 */

/** A parameter name: what `{{ params.<name> }}` and the `PARAM_<NAME>` variable of an exec script are made from. */
export const PLAYBOOK_PARAMETER_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]*$';

/** A duration with units, one or more parts: 30s, 5m, 1h30m, 500ms. */
export const PLAYBOOK_DURATION_PATTERN = '^(\\d+(\\.\\d+)?(ms|s|m|h|d))+$';

/** Mission Control action types this server does not run; named so the refusal can say which four it runs. */
export const PLAYBOOK_UNSUPPORTED_ACTION_TYPES = ['gitops', 'pod', 'ai', 'azureDevopsPipeline', 'github', 'logs', 'prometheus', 'report', 'catalog'] as const;

/**
 * Mission Control spec fields that change what a playbook does and that this server does not run: refused at save by
 * name, never accepted and ignored (ADR 0071).
 */
export const PLAYBOOK_REFUSED_SPEC_FIELDS = ['timeout', 'filters', 'permissions'] as const;

/** A spec-level env name: what `.env.<name>` reads in every action's templates. */
export const PLAYBOOK_ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** Mission Control exec fields this server does not run: refused at save by name. */
export const PLAYBOOK_REFUSED_EXEC_FIELDS = ['setup'] as const;

/** Mission Control awsSigV4 fields this server does not run (keys in the spec, roles, another endpoint): refused at save. */
export const PLAYBOOK_REFUSED_SIGV4_FIELDS = ['accessKey', 'secretKey', 'sessionToken', 'assumeRole', 'endpoint', 'skipTLSVerify'] as const;

/** The `exec.connections` kinds this server hands to scripts; each takes `{connection: connection://…}`. */
export const PLAYBOOK_EXEC_CONNECTION_KINDS = ['aws', 'kubernetes', 'azure'] as const;

/** The only `runsOn` entry this server takes: running on agents is not supported yet. */
export const PLAYBOOK_LOCAL_RUNNER = 'local';

/** Where a template or a template tag starts (`{{` or `{%`). */
export const PLAYBOOK_CODE_TEMPLATE_PATTERN = '\\{[{%]';

type JsonSchema = Record<string, unknown>;

const text = (description: string): JsonSchema => ({ type: 'string', description });
const texts = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
const refused = (description: string): JsonSchema => ({ description: `Refused at save. ${description}`, not: {} });
const duration = (description: string): JsonSchema => ({ type: 'string', pattern: PLAYBOOK_DURATION_PATTERN, description });
/** Mission Control writes parameter properties as text ("true", "10"); both forms are accepted. */
const flag = (description: string): JsonSchema => ({ description, anyOf: [{ type: 'boolean' }, { enum: ['true', 'false'] }] });
const number = (description: string, integer: boolean): JsonSchema => ({
  description,
  anyOf: [{ type: integer ? 'integer' : 'number', ...(integer ? { minimum: 0 } : {}) }, { type: 'string', pattern: integer ? '^\\d+$' : '^-?\\d+(\\.\\d+)?$' }],
});
const templated = (description: string): JsonSchema => text(`${description} Templated: {{.params.name}}, {{ .config.name | lower }}, {{ (getAction "earlier").result.stdout }}.`);
/**
 * A value the server seals at rest (ADR 0062): text as written, or the `{"$encrypted": …}` it was stored as, which an
 * edit sends back unchanged to keep the secret.
 */
const sealable = (description: string): JsonSchema => ({
  description: `${description} Templated. Stored sealed as {"$encrypted": …} unless it holds a template; send that back unchanged to keep it.`,
  anyOf: [{ type: 'string' }, { type: 'object', required: ['$encrypted'], additionalProperties: false, properties: { $encrypted: { type: 'string' } } }],
});
const code = (description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  description: `${description} Templated; each value is placed where it can only be a value, never code.`,
});

/** A pattern matching any of the words in any case (JSON Schema patterns have no case-insensitive flag). */
const anyCase = (words: readonly string[]): string =>
  `^(${words.map((word) => [...word].map((letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`).join('')).join('|')})$`;

const selectorFields = (description: string): JsonSchema => ({
  type: 'object',
  description,
  minProperties: 1,
  additionalProperties: false,
  properties: {
    id: text('The id of the resource'),
    name: text('Its name, exact or a glob with * (web-*)'),
    namespace: text('Its namespace (for a catalog item, its namespace tag)'),
    types: {
      description: 'Its type, one of these (Kubernetes::Pod for a catalog item, http for a check); !Type excludes one',
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    statuses: texts('Its status, one of these; !status excludes one'),
    healths: texts('Its health, one of these (healthy, unhealthy, warning, unknown); !health excludes one'),
    health: text('Mission Control\'s form of healths: one or several, comma-separated (unhealthy,warning)'),
    tagSelector: text('Tags it must carry: key=value, key!=value, key, !key, key in (a,b) joined by commas (catalog items)'),
    labelSelector: text('Labels it must carry: key=value, key!=value, key, !key, key in (a,b) joined by commas'),
    tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'Tags it must carry, as a map' },
    labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Labels it must carry, as a map' },
  },
});

const option: JsonSchema = {
  description: 'A choice: {label, value}, or a text used as both',
  anyOf: [
    { type: 'string' },
    { type: 'object', required: ['value'], properties: { label: text('What the list shows'), value: text('What the parameter is set to') } },
  ],
};

const parameterProperties: JsonSchema = {
  type: 'object',
  description: 'How the field is shown and the bounds its value must keep',
  properties: {
    size: { enum: [...PLAYBOOK_PARAMETER_SIZES], description: 'Width of the field' },
    language: { type: 'string', description: 'code: yaml or json (parsed and highlighted), or another language name (shell, python, …) edited as plain text' },
    jsonSchemaUrl: text('code: a JSON Schema the editor checks the value against (the server never fetches it)'),
    options: { type: 'array', items: option, minItems: 1, description: 'list: the choices (required); duration: the choices offered' },
    filter: { type: 'array', items: { $ref: '#/$defs/selector' }, description: 'team, people, component, config, check: which resources may be chosen' },
    multiline: flag('text: a text area rather than one line'),
    minLength: number('text: the fewest characters', true),
    maxLength: number('text: the most characters', true),
    regex: text('text: a regular expression the whole value must match'),
    format: text(`text: ${PLAYBOOK_TEXT_FORMATS.join(', ')} have their own rules; anything else is an input type (number, email, url, date…)`),
    min: { anyOf: [number('', false), duration('')], description: 'text with a numeric format, bytes, millicores: the smallest value; duration: the shortest (5m)' },
    max: { anyOf: [number('', false), duration('')], description: 'text with a numeric format, bytes, millicores: the largest value; duration: the longest (4h)' },
  },
};

const parameter: JsonSchema = {
  type: 'object',
  description: 'A value the person running the playbook gives; exec scripts read it as PARAM_<NAME>',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: PLAYBOOK_PARAMETER_NAME_PATTERN, description: 'Unique among the parameters; letters, digits, _ and -, not starting with a digit' },
    label: text('What the form shows'),
    description: text('Help shown with the field'),
    icon: text('Its icon'),
    type: { enum: [...PLAYBOOK_PARAMETER_TYPES], default: 'text', description: 'The kind of field (text when left out); a secret is stored sealed and has no default; configs is refused' },
    required: flag('Whether the form needs a value'),
    default: { description: 'The value the form starts with; may be a template of the target ({{ config.name }})', anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    properties: parameterProperties,
  },
  if: { required: ['type'], properties: { type: { const: 'list' } } },
  then: { required: ['properties'], properties: { properties: { required: ['options'] } } },
};

const nameValue = (description: string, valueDescription: string): JsonSchema => ({
  type: 'object',
  description,
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, description: 'Its name' }, value: sealable(valueDescription) },
});

const exec: JsonSchema = {
  type: 'object',
  description: 'Runs a bash script on the server in the exec-check sandbox, with the parameters as PARAM_<NAME> environment variables; stdout, stderr and the exit code are kept',
  required: ['script'],
  additionalProperties: false,
  properties: {
    script: code('The bash script; a template value becomes a quoted variable reference.'),
    env: { type: 'array', items: nameValue('An environment variable of the script', 'Its value.'), description: 'More environment variables' },
    connections: {
      type: 'object',
      description: 'Stored connections whose credentials the script gets as environment variables (aws, azure) or a KUBECONFIG file (kubernetes)',
      additionalProperties: false,
      properties: {
        ...Object.fromEntries(
          PLAYBOOK_EXEC_CONNECTION_KINDS.map((kind) => [
            kind,
            {
              type: 'object',
              description: `The ${kind} connection`,
              required: ['connection'],
              additionalProperties: false,
              properties: { connection: text(`A ${kind} connection (connection://namespace/name, connection://name or its id)`) },
            },
          ]),
        ),
        fromConfigItem: templated("A catalog item's id, e.g. {{.config.id}}: the kubernetes connection its scraper's kubeconfig names is handed over as kubernetes is."),
      },
    },
    checkout: {
      type: 'object',
      description: 'A git repository cloned (depth 1) into the folder the script starts in',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: text('https://, http://, file://, or host/path read as https://'),
        branch: text('The branch or tag checked out'),
        depth: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many commits to fetch (1 when left out)' },
        type: text('The kind of git host; the clone is the same for all'),
        connection: text("A stored connection (connection://namespace/name) whose user name and token git sends to the repository's origin alone"),
      },
    },
    artifacts: {
      type: 'array',
      maxItems: 20,
      description: 'Files the script writes that the run keeps, downloadable from the run: a path or glob (*, **), relative to where the script starts; only files the script itself wrote are kept',
      items: { type: 'object', required: ['path'], additionalProperties: false, properties: { path: templated('The file, or a glob.') } },
    },
    ...Object.fromEntries(PLAYBOOK_REFUSED_EXEC_FIELDS.map((field) => [field, refused('Not run by this server.')])),
  },
};

const http: JsonSchema = {
  type: 'object',
  description: 'An HTTP request; the status and body are kept, bounded in size and time',
  additionalProperties: false,
  anyOf: [{ required: ['url'] }, { required: ['connection'] }],
  properties: {
    url: templated('The URL, or a path under the connection\'s URL when connection is set.'),
    connection: text('A connection (connection://namespace/name, connection://name or its id) whose URL and credentials are used'),
    method: {
      anyOf: [{ type: 'string', pattern: anyCase(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']) }, { type: 'string', pattern: '\\{\\{' }],
      default: 'GET',
      description: 'The method, in any case (GET when left out), or a template rendering one ({{.params.method}})',
    },
    headers: { type: 'array', items: nameValue('A request header', 'Its value.'), description: 'Request headers' },
    body: sealable('The request body.'),
    templateBody: { type: 'boolean', description: 'Accepted as Mission Control writes it; the body is always templated.' },
    awsSigV4: {
      type: 'object',
      description: 'Signs the request (AWS Signature Version 4) with a stored aws connection\'s keys, for that connection\'s endpoint or AWS\'s; not beside connection',
      required: ['connection', 'service'],
      additionalProperties: false,
      properties: {
        connection: text('The aws (or s3) connection whose access key and secret key sign (connection://namespace/name)'),
        service: text('The AWS service signed for (execute-api, amscm, …)'),
        region: text("The region signed for (the connection's region, else us-east-1, when left out)"),
        ...Object.fromEntries(PLAYBOOK_REFUSED_SIGV4_FIELDS.map((field) => [field, refused('Not run by this server.')])),
      },
    },
  },
};

const sql: JsonSchema = {
  type: 'object',
  description: 'A query through a database connection; the rows are kept',
  required: ['query', 'connection'],
  additionalProperties: false,
  properties: {
    query: code('The SQL query; a template value becomes a bound parameter, as do args ($1, $2… for postgres, ? for mysql).'),
    args: { type: 'array', items: templated('A bound value.'), description: 'The values bound to the query\'s parameters, in order' },
    connection: text('The database connection (connection://namespace/name, connection://name or its id)'),
    driver: { enum: ['postgres', 'mysql'], description: 'The database kind; the connection\'s type when left out' },
  },
};

const notification: JsonSchema = {
  type: 'object',
  description: 'A message sent through a notification connection',
  required: ['connection', 'title', 'message'],
  additionalProperties: false,
  properties: {
    connection: text('The notification connection (connection://namespace/name, connection://name or its id)'),
    title: templated('The title.'),
    message: templated('The message.'),
    properties: { type: 'object', additionalProperties: sealable('A value.'), description: 'More fields of the notification' },
  },
};

const runsOn: JsonSchema = {
  type: 'array',
  items: { const: PLAYBOOK_LOCAL_RUNNER },
  description: `Where it runs: only ${PLAYBOOK_LOCAL_RUNNER} (this server); running on agents is not supported yet`,
};

const actionTypes = PLAYBOOK_ACTION_TYPES.join(', ');

const action: JsonSchema = {
  type: 'object',
  description: `One step, run in order; it holds exactly one of ${actionTypes}`,
  required: ['name'],
  additionalProperties: false,
  oneOf: PLAYBOOK_ACTION_TYPES.map((type) => ({ required: [type] })),
  properties: {
    name: { type: 'string', minLength: 1, description: 'Unique among the actions; later actions read its result as actions[\'name\']' },
    if: text('A CEL condition over params, config/component/check and actions, with success(), failure() and always(); success() when left out. The action is skipped when it is false'),
    delay: text(`How long to wait before it runs: a duration (30s, 5m, 1h30m) or CEL returning one (params.delay), at most ${PLAYBOOK_MAX_DELAY}`),
    timeout: duration(`How long it may run (${PLAYBOOK_ACTION_DEFAULT_TIMEOUT} when left out), at most ${PLAYBOOK_ACTION_MAX_TIMEOUT}; it is stopped after that`),
    exec,
    http,
    sql,
    notification,
    runsOn,
    templatesOn: { const: 'host', description: 'Templates are rendered by this server (host)' },
    retry: {
      type: 'object',
      description: 'Try again after a failure: wait duration × multiplier^n (± jitter %) before retry n + 1. Without it an action is never retried',
      required: ['limit', 'duration'],
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 10, description: 'Retries after the first attempt' },
        duration: duration('The wait before the first retry'),
        exponent: {
          type: 'object',
          description: 'Exponential backoff',
          additionalProperties: false,
          properties: { multiplier: { type: 'integer', minimum: 0, description: 'Each wait is the previous one times this (1 when left out)' } },
        },
        jitter: { type: 'integer', minimum: 0, maximum: 100, description: 'Per cent the wait varies by' },
      },
    },
    ...Object.fromEntries(PLAYBOOK_UNSUPPORTED_ACTION_TYPES.map((type) => [type, refused(`This server runs ${actionTypes} actions only.`)])),
  },
};

function triggerList(kind: PlaybookTriggerKind, subject: string): JsonSchema {
  return {
    type: 'array',
    description: `${subject} events that start the playbook on the ${kind === 'canary' ? 'check' : 'component'} they are about`,
    items: {
      type: 'object',
      required: ['event'],
      additionalProperties: false,
      properties: {
        event: { enum: [...PLAYBOOK_TRIGGER_EVENTS[kind]], description: 'The event' },
        filter: text(`A CEL condition over ${kind === 'canary' ? 'check' : 'component'}; the event starts the playbook only when it is true`),
        labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Labels it must carry, as a map' },
      },
    },
  };
}

/** A credential of a webhook: text, `{value}`, or what the server sealed it as. */
const webhookSecret = (description: string): JsonSchema => ({
  description: `${description} Stored sealed as {"$encrypted": …}; send that back unchanged to keep it.`,
  anyOf: [
    { type: 'string', minLength: 1 },
    { type: 'object', required: ['value'], additionalProperties: false, properties: { value: { type: 'string', minLength: 1 } } },
    { type: 'object', required: ['$encrypted'], additionalProperties: false, properties: { $encrypted: { type: 'string' } } },
  ],
});

const webhookTrigger: JsonSchema = {
  type: 'object',
  description: 'A POST to /api/playbook/webhook/<path> that passes the authentication starts a run; templates read the request as .request',
  required: ['path', 'authentication'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', pattern: PLAYBOOK_WEBHOOK_PATH_PATTERN, description: 'One URL segment, unique among playbooks' },
    authentication: {
      type: 'object',
      description: 'Required here: every scheme given must pass',
      minProperties: 1,
      additionalProperties: false,
      properties: {
        basic: {
          type: 'object',
          description: 'HTTP Basic credentials the request must carry',
          required: ['username', 'password'],
          additionalProperties: false,
          properties: { username: webhookSecret('The user name.'), password: webhookSecret('The password.') },
        },
        github: { type: 'object', description: "GitHub's signature of the body", required: ['token'], additionalProperties: false, properties: { token: webhookSecret("The webhook's secret (X-Hub-Signature-256).") } },
        svix: {
          type: 'object',
          description: 'Svix (Standard Webhooks) signatures',
          required: ['secret'],
          additionalProperties: false,
          properties: { secret: webhookSecret('The whsec_… signing secret.'), timestampTolerance: text('How old a signature may be (5m when left out)') },
        },
        jwt: refused('Not run by this server: JWKS keys are not fetched.'),
      },
    },
  },
};

const triggers: JsonSchema = {
  type: 'object',
  description: 'Events that start the playbook by themselves (one run at a time per resource); the selectors still say on which resources',
  minProperties: 1,
  additionalProperties: false,
  properties: {
    canary: triggerList('canary', 'Health check'),
    component: triggerList('component', 'Component'),
    config: refused('Not run by this server: catalog events do not start playbooks here.'),
    webhook: webhookTrigger,
  },
};

const approval: JsonSchema = {
  type: 'object',
  description: 'Runs wait until they are approved',
  required: ['approvers'],
  properties: {
    type: { enum: ['any', 'all'], default: 'any', description: 'any: one approval starts the run; all: every listed person and one member of every listed team' },
    approvers: {
      type: 'object',
      description: 'Who may approve (at least one person or team)',
      anyOf: [{ required: ['people'], properties: { people: { minItems: 1 } } }, { required: ['teams'], properties: { teams: { minItems: 1 } } }],
      properties: { people: texts('People, by e-mail or id'), teams: texts('Teams, by name or id') },
    },
  },
};

const specSchema: JsonSchema = {
  type: 'object',
  description: 'The playbook spec',
  required: ['actions'],
  properties: {
    title: text('What the playbook is called on its card (the name when left out)'),
    description: text('What it does'),
    icon: text('Its icon'),
    category: text('The group its card is shown in (Other when left out)'),
    configs: { type: 'array', items: { $ref: '#/$defs/selector' }, description: 'The catalog items it is offered on: those matching any of these' },
    components: { type: 'array', items: { $ref: '#/$defs/selector' }, description: 'The topology components it is offered on' },
    checks: { type: 'array', items: { $ref: '#/$defs/selector' }, description: 'The health checks it is offered on' },
    parameters: { type: 'array', items: { $ref: '#/$defs/parameter' }, description: 'The values asked for when it runs' },
    actions: { type: 'array', items: { $ref: '#/$defs/action' }, minItems: 1, description: 'The steps, run in order' },
    approval,
    runsOn,
    templatesOn: { const: 'host', description: 'Templates are rendered by this server (host)' },
    on: triggers,
    env: {
      type: 'array',
      description: "Values rendered once when a run starts, over its parameters, target, user and request; every action's templates read them as .env.<name>, and scripts get them placed as values, never as code",
      items: {
        type: 'object',
        description: 'A named value of the run',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: PLAYBOOK_ENV_NAME_PATTERN, description: 'Its name: letters, digits and _, read as .env.<name>' },
          value: text('A template (Go or Liquid) rendered at run start; a value that fails to render fails the run'),
          valueFrom: refused('Secrets are not read from references: a secret handed to scripts can go anywhere (docs/security.md). Keep it in a connection.'),
        },
      },
    },
    ...Object.fromEntries(PLAYBOOK_REFUSED_SPEC_FIELDS.map((field) => [field, refused('Not run by this server.')])),
  },
  additionalProperties: false,
};

const resourceSchema: JsonSchema = {
  type: 'object',
  description: 'The whole Mission Control Playbook resource',
  required: ['spec'],
  properties: {
    apiVersion: text('mission-control.flanksource.com/v1'),
    kind: { const: 'Playbook', description: 'Playbook' },
    metadata: {
      type: 'object',
      description: 'Fills the name and namespace of a new playbook that leaves them out',
      properties: { name: text('The playbook name'), namespace: text('The playbook namespace'), labels: { type: 'object', description: 'Accepted; ignored' }, annotations: { type: 'object', description: 'Accepted; ignored' } },
    },
    spec: { $ref: '#/$defs/spec' },
  },
};

/**
 * A playbook spec as the YAML editor holds it (JSON Schema draft 2020-12): the whole Mission Control resource or its spec
 * alone. Fields this server does not run are refused rather than ignored wherever ignoring them would change what a
 * run does (other action types, retries, agents, unknown action or selector fields).
 */
export const PLAYBOOK_SPEC_SCHEMA: Readonly<JsonSchema> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Playbook',
  if: { type: 'object', anyOf: [{ required: ['kind'] }, { required: ['apiVersion', 'spec'] }] },
  then: { $ref: '#/$defs/resource' },
  else: { $ref: '#/$defs/spec' },
  $defs: {
    resource: resourceSchema,
    spec: specSchema,
    selector: selectorFields('Resources matching every field given (at least one field)'),
    parameter,
    action,
  },
};
