/**
 * Playbooks (spec 001 §2.3–2.5, §3, §4, §5, §7, §9): the spec's shape as the server runs it, the run request, runs and
 * their actions as the API answers them. The spec keeps Mission Control's Playbook shape so a pasted one works.
 */

import type { SealedSecret } from './check-specs';

export const PLAYBOOK_RUN_STATUSES = ['pending', 'scheduled', 'running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export type PlaybookRunStatus = (typeof PLAYBOOK_RUN_STATUSES)[number];

export const PLAYBOOK_ACTION_STATUSES = ['pending', 'running', 'sleeping', 'completed', 'failed', 'skipped', 'cancelled'] as const;
export type PlaybookActionStatus = (typeof PLAYBOOK_ACTION_STATUSES)[number];

/** The run detail polls while a run is in one of these (spec 001 §4 names running, waiting and pending; a delayed run is scheduled). */
export const ACTIVE_PLAYBOOK_RUN_STATUSES: readonly PlaybookRunStatus[] = ['pending', 'scheduled', 'running', 'waiting'];
export const FINAL_PLAYBOOK_RUN_STATUSES: readonly PlaybookRunStatus[] = ['completed', 'failed', 'cancelled'];

export const PLAYBOOK_RUN_POLL_MS = 5000;
export const PLAYBOOK_RUNS_PAGE_SIZE = 150;
export const PLAYBOOK_RUNS_CONFIG_PAGE_SIZE = 200;
export const PLAYBOOK_RUNS_DEFAULT_RANGE = 'now-7d';
/** Cards of playbooks without a category are grouped under this. */
export const PLAYBOOK_OTHER_CATEGORY = 'Other';

export const PLAYBOOK_PARAMETER_TYPES = ['code', 'checkbox', 'list', 'team', 'people', 'component', 'config', 'check', 'text', 'bytes', 'millicores', 'duration', 'secret'] as const;
export type PlaybookParameterType = (typeof PLAYBOOK_PARAMETER_TYPES)[number];
export const PLAYBOOK_PARAMETER_SIZES = ['very-small', 'small', 'medium', 'large', 'full'] as const;
export type PlaybookParameterSize = (typeof PLAYBOOK_PARAMETER_SIZES)[number];

/** Text formats with their own rule; any other `format` is an HTML input type hint (number, email, url, date…). */
export const PLAYBOOK_TEXT_FORMATS = ['bytes', 'millicores', 'dns1123'] as const;

/**
 * A resource selector of the spec's top-level `configs`, `components` and `checks` (where the playbook is offered) and
 * of a resource parameter's `filter`. Mission Control's ResourceSelector fields; every one given must match.
 */
export interface PlaybookResourceSelector {
  id?: string;
  /** Exact, or a glob with `*`. */
  name?: string;
  namespace?: string;
  types?: string[];
  statuses?: string[];
  healths?: string[];
  /** `key=value` pairs, comma separated, on tags (configs) or labels (components, checks). */
  tagSelector?: string;
  labelSelector?: string;
  /** A map form of the above, as older specs wrote it. */
  tags?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface PlaybookParameterOption {
  label: string;
  value: string;
}

/**
 * `properties` of a parameter. Mission Control writes them as strings ("true", "10"); both strings and native values
 * are accepted and normalised by the parser.
 */
export interface PlaybookParameterProperties {
  size?: PlaybookParameterSize;
  /** code: yaml and json are parsed and highlighted; any other (shell, python, …) is edited as plain text. */
  language?: string;
  /** code: shown to the editor only; the server never fetches it. */
  jsonSchemaUrl?: string;
  /** list */
  options?: PlaybookParameterOption[];
  /** team, people, component, config, check: which resources may be chosen. */
  filter?: PlaybookResourceSelector[];
  /** text */
  multiline?: boolean;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  format?: string;
  /** text with a numeric format (number, bytes, millicores): bounds of the value. */
  min?: number;
  max?: number;
}

export interface PlaybookParameter {
  name: string;
  label?: string;
  description?: string;
  icon?: string;
  /** Default text. */
  type: PlaybookParameterType;
  required?: boolean;
  /** May be a template of the target (`{{ config.name }}`), resolved by the get-params call. */
  default?: string;
  properties?: PlaybookParameterProperties;
}

/**
 * A value the server seals at rest (exec env values, http header values off the public list, an http body, notification
 * properties named like a secret): text as written, `{"$encrypted": …}` as stored and read back (ADR 0062). Text that
 * holds a template is a reference filled in at run time and stays text.
 */
export type PlaybookSecretText = string | SealedSecret;

/** An `env` entry of an exec action: the value is templated, and the script reads it as $NAME or {{.env.NAME}}. */
export interface PlaybookEnvVar {
  name: string;
  value: PlaybookSecretText;
}

export interface PlaybookHeader {
  name: string;
  value: PlaybookSecretText;
}

/** A stored connection, as Mission Control names one: `connection://namespace/name`, `connection://name` or an id. */
export interface ExecConnectionRef {
  connection: string;
}

/** Stored connections whose credentials an exec script gets as the environment its CLI reads (ADR 0071). */
export interface ExecConnections {
  /** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL. */
  aws?: ExecConnectionRef;
  /** KUBECONFIG: a file in the script's private folder holding the connection's kubeconfig. */
  kubernetes?: ExecConnectionRef;
  /** AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_TENANT_ID. */
  azure?: ExecConnectionRef;
  /**
   * A catalog item's id (templated, `{{.config.id}}`): the kubernetes connection its scraper's kubeconfig names is
   * handed to the script as `kubernetes` is (playbooks only).
   */
  fromConfigItem?: string;
}

/** duty's checkout: a public repository cloned into the folder the script starts in. */
export interface ExecCheckout {
  url: string;
  branch?: string;
  depth?: number;
  /** A stored connection whose credentials git sends to the checkout's origin alone. */
  connection?: string;
}

export interface ExecAction {
  script: string;
  env?: PlaybookEnvVar[];
  connections?: ExecConnections;
  checkout?: ExecCheckout;
  /** Files the script writes that the run keeps (a path or glob, relative to where the script starts). Templated. */
  artifacts?: ExecArtifact[];
}

export interface ExecArtifact {
  path: string;
}

/** A file an exec action or exec check kept; its content is downloaded from GET /api/artifacts/{id}. */
export interface ArtifactInfo {
  id: string;
  /** The path the file was found at. */
  path: string;
  /** Its last path segment. */
  filename: string;
  size: number;
  /** sha256 of the kept content, hex. */
  checksum: string;
  created_at: string;
}

export const PLAYBOOK_HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export interface HttpAction {
  /** A URL, or a path under the connection's URL when `connection` is set. Templated. */
  url?: string;
  /** `connection://<namespace>/<name>`, `connection://<name>` or a connection id. */
  connection?: string;
  /** One of PLAYBOOK_HTTP_METHODS in any case, or a template rendering one (`{{.params.method}}`), checked at run. */
  method?: string;
  headers?: PlaybookHeader[];
  /** Templated. */
  body?: PlaybookSecretText;
  /** Sign the request with a stored aws connection's keys (Signature Version 4), as Mission Control's `awsSigV4`. */
  awsSigV4?: HttpAwsSigV4;
}

export interface HttpAwsSigV4 {
  /** The aws (or s3) connection whose access key and secret key sign: `connection://<namespace>/<name>`. */
  connection: string;
  /** The AWS service signed for (`execute-api`, `amscm`, …). */
  service: string;
  /** Defaults to the connection's region, else us-east-1. */
  region?: string;
}

export interface SqlAction {
  /** Templated: each value becomes a bound parameter, never SQL text (ADR 0071). */
  query: string;
  /** Bound as $1, $2 … (postgres) or ? (mysql); each is templated. */
  args?: string[];
  connection: string;
  /** postgres or mysql; defaults to the connection's type. */
  driver?: 'postgres' | 'mysql';
}

export interface NotificationAction {
  /** A notification connection (`connection://…` or id). */
  connection: string;
  /** Templated. */
  title: string;
  /** Templated. */
  message: string;
  properties?: Record<string, PlaybookSecretText>;
}

/** Mission Control's retry: wait `duration` × multiplier^n (± jitter per cent) before retry n + 1, up to `limit` retries. */
export interface PlaybookActionRetry {
  limit: number;
  duration: string;
  exponent?: { multiplier: number };
  jitter?: number;
}

export const PLAYBOOK_ACTION_TYPES = ['exec', 'http', 'sql', 'notification'] as const;
export type PlaybookActionType = (typeof PLAYBOOK_ACTION_TYPES)[number];

export interface PlaybookAction {
  name: string;
  /** CEL; absent means `success()` (every earlier action completed or was skipped). */
  if?: string;
  /** A duration (`30s`, `5m`), or CEL returning one (`params.delay`): the action sleeps this long before it runs. */
  delay?: string;
  /** Tries again after a failure, as written; an action without it is never retried. */
  retry?: PlaybookActionRetry;
  /** A duration; default PLAYBOOK_ACTION_DEFAULT_TIMEOUT, at most PLAYBOOK_ACTION_MAX_TIMEOUT. */
  timeout?: string;
  exec?: ExecAction;
  http?: HttpAction;
  sql?: SqlAction;
  notification?: NotificationAction;
}

export const PLAYBOOK_ACTION_DEFAULT_TIMEOUT = '5m';
export const PLAYBOOK_ACTION_MAX_TIMEOUT = '1h';
export const PLAYBOOK_MAX_DELAY = '24h';

export interface PlaybookApproval {
  /** any: one approval starts the run; all: every listed person, and one member of every listed team. */
  type?: 'any' | 'all';
  approvers: { people?: string[]; teams?: string[] };
}

/** Mission Control's event names per `on` kind, as the event queue writes them (`check.failed`, `component.unhealthy`). */
export const PLAYBOOK_TRIGGER_EVENTS = {
  canary: ['failed', 'passed'],
  component: ['healthy', 'unhealthy', 'warning', 'unknown'],
} as const;
export type PlaybookTriggerKind = keyof typeof PLAYBOOK_TRIGGER_EVENTS;

/** One `on.<kind>` entry: the event, and the labels and CEL filter the check or component must also match. */
export interface PlaybookEventTrigger {
  event: string;
  filter?: string;
  labels?: Record<string, string>;
}

/** How a webhook request proves it may start the playbook; each one given must pass (Mission Control's PlaybookEventWebhookAuth). */
export interface PlaybookWebhookAuthentication {
  /** HTTP Basic credentials the request must carry. */
  basic?: { username: string; password: PlaybookSecretText };
  /** GitHub's X-Hub-Signature-256: the HMAC-SHA256 of the raw body with this secret. */
  github?: { token: PlaybookSecretText };
  /** Svix (Standard Webhooks) signatures with this `whsec_…` secret; timestamps older than the tolerance are refused. */
  svix?: { secret: PlaybookSecretText; timestampTolerance?: string };
}

/** `on.webhook`: a GET or POST to /api/playbook/webhook/<path> that passes its authentication starts a run. */
export interface PlaybookWebhook {
  path: string;
  authentication: PlaybookWebhookAuthentication;
}

/** The request a webhook run keeps, as Mission Control's WebhookRequest: templates read it as `.request`. */
export interface PlaybookWebhookRequest {
  method: string;
  url: string;
  /** The query parameters. */
  params: Record<string, string>;
  /** Header names lower-cased; credentials and signatures are left out. */
  headers: Record<string, string>;
  content: string;
  /** The body parsed, when it was sent as application/json. */
  json?: unknown;
}

/** A webhook path: one URL segment. */
export const PLAYBOOK_WEBHOOK_PATH_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';

export type PlaybookTriggers = Partial<Record<PlaybookTriggerKind, PlaybookEventTrigger[]>> & { webhook?: PlaybookWebhook };

/** The spec as parsed: Mission Control's `kind: Playbook` resource or its spec alone are both accepted on save. */
export interface PlaybookSpec {
  title?: string;
  description?: string;
  icon?: string;
  category?: string;
  configs?: PlaybookResourceSelector[];
  components?: PlaybookResourceSelector[];
  checks?: PlaybookResourceSelector[];
  parameters?: PlaybookParameter[];
  actions: PlaybookAction[];
  approval?: PlaybookApproval;
  /** Events that run the playbook by themselves, on the check or component they are about. */
  on?: PlaybookTriggers;
  /** Values rendered once at run start; every action's templates read them as `.env.<name>`. */
  env?: PlaybookSpecEnvVar[];
}

/** A `spec.env` entry: a template of the run's context, never a secret reference. */
export interface PlaybookSpecEnvVar {
  name: string;
  value: string;
}

export type PlaybookTargetType = 'config' | 'component' | 'check';

/** POST /api/playbook/run (spec 001 §3 "Playbook run request"). At most one target id. */
export interface PlaybookRunRequest {
  /** The playbook. */
  id: string;
  config_id?: string;
  component_id?: string;
  check_id?: string;
  params?: Record<string, string>;
}

export interface PlaybookRunResponse {
  run_id: string;
}

/** A parameter as the get-params call answers it: the definition with `default` resolved for the chosen target. */
export type ResolvedPlaybookParameter = PlaybookParameter;

/** POST /api/playbook/{id}/params, body { config_id?, component_id?, check_id? }. */
export interface PlaybookParamsResponse {
  params: ResolvedPlaybookParameter[];
}

/** GET /api/playbook/list?config_id=|component_id=|check_id= : the live playbooks offered for that target. */
export interface RunnablePlaybook {
  id: string;
  name: string;
  title: string | null;
  icon: string | null;
  category: string | null;
  description: string | null;
  /** The parameters are part of the answer so the modal needs no second call for an untargeted form. */
  spec: PlaybookSpec;
}

export interface PlaybookActionResult {
  stdout?: string;
  stderr?: string;
  /** Free text the runner adds (an http status line, the rows of an sql query summarised, a notification recorded). */
  logs?: string;
  exitCode?: number;
  /** http */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** sql */
  rows?: Record<string, unknown>[];
  rowCount?: number;
  /** sql: the same number under Mission Control's name. */
  count?: number;
  /** Set when stdout, stderr, body or rows were cut at the size limit. */
  truncated?: boolean;
  /** exec: each artifact pattern that kept nothing, or file that was not kept, and why. */
  artifactNotes?: string[];
}

/** GET /api/playbook/run/action/{id}, and each entry of a run's `actions`. */
export interface PlaybookRunAction {
  id: string;
  playbook_run_id: string;
  name: string;
  status: PlaybookActionStatus;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  error: string | null;
  result: PlaybookActionResult | null;
  /** The files the action kept, in the order found. */
  artifacts: ArtifactInfo[];
}

export interface PlaybookRef {
  id: string;
  name: string;
  title: string | null;
  icon: string | null;
}

export interface PlaybookRunTarget {
  type: PlaybookTargetType;
  id: string;
  name: string;
  /** config type, component type or check type. */
  kind: string | null;
}

/** GET /api/playbook/run/{id} (spec 001 §3 "Playbook run"), actions in the order they ran. */
export interface PlaybookRun {
  id: string;
  playbook_id: string;
  playbooks: PlaybookRef | null;
  status: PlaybookRunStatus;
  parameters: Record<string, string>;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  target: PlaybookRunTarget | null;
  scheduled_time: string;
  start_time: string | null;
  end_time: string | null;
  created_at: string;
  created_by: string | null;
  /** The name of the person who requested it. */
  created_by_name: string | null;
  error: string | null;
  /** Set while the run waits for approval. */
  approval: { type: 'any' | 'all'; people: string[]; teams: string[]; approved_by: string[] } | null;
  /** The webhook request that started it (on.webhook), credentials left out; null for every other run. */
  request: PlaybookWebhookRequest | null;
  actions: PlaybookRunAction[];
}

export function isActivePlaybookRun(status: PlaybookRunStatus): boolean {
  return ACTIVE_PLAYBOOK_RUN_STATUSES.includes(status);
}
