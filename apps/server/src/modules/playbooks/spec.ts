import { parse as parseYaml } from 'yaml';
import {
  CHECKOUT_BRANCH_MESSAGE,
  checkoutUrlProblem,
  isCheckoutBranch,
  MAX_CHECKOUT_DEPTH,
  PLAYBOOK_ACTION_MAX_TIMEOUT,
  PLAYBOOK_ACTION_TYPES,
  PLAYBOOK_DURATION_PATTERN,
  PLAYBOOK_EXEC_CONNECTION_KINDS,
  PLAYBOOK_HTTP_METHODS,
  PLAYBOOK_LOCAL_RUNNER,
  PLAYBOOK_MAX_DELAY,
  PLAYBOOK_PARAMETER_NAME_PATTERN,
  PLAYBOOK_PARAMETER_SIZES,
  PLAYBOOK_PARAMETER_TYPES,
  PLAYBOOK_TRIGGER_EVENTS,
  PLAYBOOK_UNSUPPORTED_ACTION_TYPES,
  PLAYBOOK_WEBHOOK_PATH_PATTERN,
  parseDurationMs,
  scriptInterpreterProblem,
  type ExecAction,
  type ExecCheckout,
  type ExecArtifact,
  type ExecConnections,
  type HttpAction,
  type HttpAwsSigV4,
  type NotificationAction,
  type PlaybookAction,
  type PlaybookWebhook,
  type PlaybookWebhookAuthentication,
  type PlaybookActionRetry,
  type PlaybookApproval,
  type PlaybookEventTrigger,
  type PlaybookParameter,
  type PlaybookParameterOption,
  type PlaybookParameterProperties,
  type PlaybookResourceSelector,
  type PlaybookSecretText,
  type PlaybookSpecEnvVar,
  type PlaybookSpec,
  type PlaybookTriggerKind,
  type PlaybookTriggers,
  type SqlAction,
  isSealedSecret,
} from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { checkRuleFilter } from '../incident-rules';
import { parseSelectorRequirements } from './selectors';
import { checkConditionSyntax, checkDelaySyntax, checkTemplateSyntax, holdsDollarActions, holdsGoActions } from './templating';
import { POWERSHELL_INTERPRETERS, scriptInterpreter } from '../../platform/value-placement';
import { mayHoldGoActions } from '../../platform/go-template/go-template';

/** The resource's metadata, when the whole Mission Control resource was given. */
export interface PlaybookMetadata {
  name?: string;
  namespace?: string;
}

export interface ParsedPlaybook {
  spec: PlaybookSpec;
  metadata: PlaybookMetadata | null;
}

const SPEC_CODE = 'OD_PLAYBOOK_SPEC';
const FIX_HINT = 'Fix the field named in details and save again';
const ACTION_TYPES_TEXT = `${PLAYBOOK_ACTION_TYPES.slice(0, -1).join(', ')} and ${PLAYBOOK_ACTION_TYPES.at(-1) ?? ''}`;
const ACTION_TYPE_HINT = `Give each action one of ${PLAYBOOK_ACTION_TYPES.join(', ')}`;
const TEMPLATE_HINT = 'Templates are Go templates as in Mission Control ({{.params.name}}, {{ .config.name | lower }}) or Liquid ({{ params.name }})';
const RUNS_ON_HINT = `Remove runsOn, or write runsOn: [${PLAYBOOK_LOCAL_RUNNER}]`;
const SELECTOR_HINT = "Name at least one of id, name, namespace, types, statuses, healths, tags, labels, tagSelector or labelSelector; name: '*' matches every name";
const DURATION = new RegExp(PLAYBOOK_DURATION_PATTERN);
const PARAMETER_NAME = new RegExp(PLAYBOOK_PARAMETER_NAME_PATTERN);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HTTP_METHODS = PLAYBOOK_HTTP_METHODS;
const SQL_DRIVERS = ['postgres', 'mysql'] as const;
const SELECTOR_FIELDS = ['id', 'name', 'namespace', 'types', 'statuses', 'healths', 'health', 'tagSelector', 'labelSelector', 'tags', 'labels'] as const;
const ACTION_FIELDS = new Set(['name', 'if', 'delay', 'timeout', 'retry', 'runsOn', 'templatesOn', ...PLAYBOOK_ACTION_TYPES]);
const EXEC_FIELDS = new Set(['script', 'env', 'connections', 'checkout', 'artifacts']);
/** At most this many artifact paths per action. */
const MAX_ARTIFACT_PATHS = 20;
/** Mission Control exec fields this server does not run, each with what to do instead. */
const EXEC_REFUSED: Readonly<Record<string, string>> = {
  setup: 'Installing tools per action is not supported: use the tools on the server\'s PATH',
};
const CONNECTION_KIND_HINT = `Name a stored connection per kind: connections: {${PLAYBOOK_EXEC_CONNECTION_KINDS.map((kind) => `${kind}: {connection: connection://ns/name}`).join(', ')}}`;
/** Mission Control spec fields that would change what the playbook does and that this server does not run. */
const SPEC_REFUSED: Readonly<Record<string, string>> = {
  timeout: 'Give each action a timeout instead (at most 1h)',
  filters: 'Use configs, components and checks selectors to say where the playbook is offered',
  permissions: 'Who may run playbooks is decided by roles here: remove permissions',
};
const SPEC_FIELDS = new Set(['title', 'description', 'icon', 'category', 'configs', 'components', 'checks', 'parameters', 'actions', 'approval', 'runsOn', 'templatesOn', 'on', 'env']);
/** `on` kinds this server does not run, each with what to do instead. */
export const TRIGGERS_REFUSED: Readonly<Record<string, string>> = {
  config: 'Catalog events do not start playbooks here: run it from the catalog item, or trigger it on the check or component that watches the item',
};
const WEBHOOK_AUTH_HINT = 'Give authentication: basic {username, password}, github {token} or svix {secret} (or run it with an API token: POST /api/playbook/run)';
/** A retry waits at most this long before one attempt, and an action is tried at most this many more times. */
const RETRY_MAX_WAIT = '1h';
const RETRY_MAX_LIMIT = 10;
const HTTP_FIELDS = new Set(['url', 'connection', 'method', 'headers', 'body', 'templateBody', 'awsSigV4']);
/** awsSigV4 fields Mission Control has beside connection, service and region, each with why it is not run here. */
const AWS_SIGV4_REFUSED: Readonly<Record<string, string>> = {
  accessKey: 'Keys are not written into a playbook: store them in an aws connection and name it in awsSigV4.connection',
  secretKey: 'Keys are not written into a playbook: store them in an aws connection and name it in awsSigV4.connection',
  sessionToken: 'Keys are not written into a playbook: store them in an aws connection and name it in awsSigV4.connection',
  assumeRole: "Roles are not assumed (no STS call): store the role's own keys in the connection",
  endpoint: 'The request goes to url: write the endpoint there',
  skipTLSVerify: 'TLS verification is set on the connection (insecure_tls)',
};
const SQL_FIELDS = new Set(['query', 'args', 'connection', 'driver']);
const NOTIFICATION_FIELDS = new Set(['connection', 'title', 'message', 'properties']);
const AWS_SIGV4_FIELDS = new Set(['connection', 'service', 'region']);
/** Each unsupported action type refused by name, with what runs instead. */
const ACTION_TYPES_REFUSED: Readonly<Record<string, string>> = Object.fromEntries(
  PLAYBOOK_UNSUPPORTED_ACTION_TYPES.map((type) => [type, `${type} actions are not run: this server runs ${ACTION_TYPES_TEXT} actions`]),
);

export interface PlaybookFieldBlock {
  /** Fields the save takes and a run honours. */
  runs: ReadonlySet<string>;
  /** Fields refused at save by name, each with what to do instead. */
  refused: Readonly<Record<string, string>>;
}

/**
 * What the save takes and refuses in each block of a spec: the compatibility page is written from these, beside the
 * editor's JSON Schema (compatibility-section.ts, whose test holds the two equal).
 */
export const PLAYBOOK_FIELD_BLOCKS = {
  spec: { runs: SPEC_FIELDS, refused: SPEC_REFUSED },
  action: { runs: ACTION_FIELDS, refused: ACTION_TYPES_REFUSED },
  exec: { runs: EXEC_FIELDS, refused: EXEC_REFUSED },
  http: { runs: HTTP_FIELDS, refused: {} },
  awsSigV4: { runs: AWS_SIGV4_FIELDS, refused: AWS_SIGV4_REFUSED },
  sql: { runs: SQL_FIELDS, refused: {} },
  notification: { runs: NOTIFICATION_FIELDS, refused: {} },
} as const satisfies Readonly<Record<string, PlaybookFieldBlock>>;

function invalid(path: string, problem: string, hint = FIX_HINT): never {
  throw new AppError(400, SPEC_CODE, `The playbook spec is not valid: ${path} ${problem}`, path, hint);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(base: string, key: string | number): string {
  return typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`;
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(path, 'must be an object');
  return value;
}

function list(value: unknown, path: string): unknown[] {
  if (!given(value)) return [];
  if (!Array.isArray(value)) invalid(path, 'must be a list');
  return value;
}

function optionalText(value: unknown, path: string): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'string') invalid(path, 'must be text');
  return value;
}

function requiredText(value: unknown, path: string, hint?: string): string {
  if (typeof value !== 'string' || value.trim() === '') invalid(path, 'is required', hint);
  return value;
}

/** Text, or a number or boolean written without quotes (Mission Control writes `default: 10`). */
function scalarText(value: unknown, path: string): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') invalid(path, 'must be text');
  return value;
}

function textList(value: unknown, path: string): string[] | undefined {
  if (!given(value)) return undefined;
  const entries = typeof value === 'string' ? [value] : list(value, path);
  return entries.map((entry, index) => {
    if (typeof entry !== 'string' || entry.trim() === '') invalid(join(path, index), 'must be non-empty text');
    return entry;
  });
}

function textMap(value: unknown, path: string): Record<string, string> | undefined {
  if (!given(value)) return undefined;
  const map = object(value, path);
  const parsed: Record<string, string> = {};
  for (const [key, entry] of Object.entries(map)) {
    const text = scalarText(entry, join(path, key));
    if (text !== undefined) parsed[key] = text;
  }
  return parsed;
}

/** `true`, `false`, or Mission Control's "true" / "false". */
function flag(value: unknown, path: string): boolean | undefined {
  if (!given(value)) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  invalid(path, 'must be true or false');
}

/** A number, or Mission Control's "10". */
function numeric(value: unknown, path: string, integer: boolean): number | undefined {
  if (!given(value)) return undefined;
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) invalid(path, 'must be a number');
  if (integer && (!Number.isInteger(parsed) || parsed < 0)) invalid(path, 'must be a whole number, 0 or more');
  return parsed;
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[], fold: (text: string) => string = (text) => text): T | undefined {
  if (!given(value)) return undefined;
  const text = typeof value === 'string' ? fold(value.trim()) : value;
  const match = allowed.find((entry) => entry === text);
  if (match === undefined) invalid(path, `must be one of ${allowed.join(', ')}`);
  return match;
}

function onlyFields(entry: Record<string, unknown>, path: string, known: ReadonlySet<string>, what: string, hint: string): void {
  for (const key of Object.keys(entry)) {
    if (!known.has(key)) invalid(join(path, key), `is not a field ${what} this server runs`, hint);
  }
}

/** `code`: a URL or body, whose values are placed rather than pasted (ADR 0071). */
function templateField(value: unknown, path: string, required: boolean, code = false): string | undefined {
  const text = required ? requiredText(value, path) : scalarText(value, path);
  if (text === undefined) return undefined;
  const problem = checkTemplateSyntax(text, code);
  if (problem !== null) invalid(path, `is not a valid template: ${problem}`, TEMPLATE_HINT);
  return text;
}

/**
 * A value the server seals (exec env, http headers and body, notification properties): a template like every templated
 * field, or the `{"$encrypted": …}` it was stored as, which an edit sends back to keep the secret (playbook-secrets.ts
 * checks where it may open).
 */
function sealableField(value: unknown, path: string, code = false): PlaybookSecretText | undefined {
  if (isSealedSecret(value)) return { $encrypted: value.$encrypted };
  return templateField(value, path, false, code);
}

/**
 * A script or query: templated, with each value placed where it can only be a value when it runs (ADR 0071). A script
 * whose #! line names another interpreter than a POSIX shell or PowerShell takes no templates: its values could not be placed.
 */
function codeField(value: unknown, path: string, what: 'script' | 'query'): string {
  const text = requiredText(value, path);
  const problem = checkTemplateSyntax(text, true, what === 'script');
  if (problem !== null) invalid(path, `is not a valid template: ${problem}`, TEMPLATE_HINT);
  const interpreterProblem = what === 'script' ? scriptInterpreterProblem(text) : null;
  if (interpreterProblem !== null) invalid(path, `is not run: ${interpreterProblem}`);
  const templated = /\{[{%]/.test(text) || mayHoldGoActions(text) || (what === 'script' && holdsDollarActions(text, 'fields'));
  const interpreter = what === 'script' && templated ? scriptInterpreter(text) : null;
  if (interpreter !== null && !POWERSHELL_INTERPRETERS.has(interpreter)) {
    invalid(path, `holds a template, but the script runs with ${interpreter}, for which this server cannot quote values`, 'Pass values with exec env and read them in the script: os.environ["NAME"] in python, $env:NAME in pwsh, process.env.NAME in node');
  }
  return text;
}

/** A duration's milliseconds, or null when the text is not one (30s, 5m, 1h30m, 500ms). */
function durationOf(text: string): number | null {
  const trimmed = text.trim();
  return DURATION.test(trimmed) ? parseDurationMs(trimmed) : null;
}

/**
 * Milliseconds of a duration as specs write it (`30s`, `5m`, `1h30m`). Throws OD_PLAYBOOK_SPEC on anything else; the
 * save refuses such a spec, so the engine meets one only in a run whose stored spec predates a rule.
 */
export function durationMs(text: string): number {
  const ms = durationOf(text);
  if (ms === null) invalid('duration', `'${text}' is not a duration`, 'Write a duration such as 30s, 5m or 1h30m');
  return ms;
}

function durationField(value: unknown, path: string, max: string, positive: boolean): string | undefined {
  const text = optionalText(value, path);
  if (text === undefined) return undefined;
  const ms = durationOf(text);
  if (ms === null) invalid(path, `'${text}' is not a duration`, 'Write a duration such as 30s, 5m or 1h30m');
  if (positive && ms <= 0) invalid(path, 'must be longer than 0s');
  if (ms > durationMs(max)) invalid(path, `'${text}' is longer than the ${max} allowed`);
  return text.trim();
}

function runsOnField(value: unknown, path: string): void {
  const runners = textList(value, path) ?? [];
  const other = runners.find((runner) => runner !== PLAYBOOK_LOCAL_RUNNER);
  if (other !== undefined) invalid(path, `names '${other}': this server runs playbooks itself, running them on agents is not supported yet`, RUNS_ON_HINT);
}

function selectorText(value: unknown, path: string): string | undefined {
  const text = optionalText(value, path);
  if (text === undefined) return undefined;
  const parsed = parseSelectorRequirements(text);
  if (typeof parsed === 'string') invalid(path, `does not parse: ${parsed}`, 'Write key=value, key!=value, key, !key or key in (a,b), joined by commas');
  return text;
}

function selector(value: unknown, path: string): PlaybookResourceSelector {
  const entry = object(value, path);
  onlyFields(entry, path, new Set(SELECTOR_FIELDS), 'of a selector', SELECTOR_HINT);
  const parsed: PlaybookResourceSelector = {};
  for (const key of ['id', 'name', 'namespace'] as const) {
    const text = optionalText(entry[key], join(path, key));
    if (text !== undefined) parsed[key] = text;
  }
  for (const key of ['types', 'statuses', 'healths'] as const) {
    const texts = textList(entry[key], join(path, key));
    if (texts !== undefined && texts.length > 0) parsed[key] = texts;
  }
  // Mission Control's resource selectors write `health: unhealthy,warning`; it is read as `healths`.
  const health = optionalText(entry.health, join(path, 'health'));
  const healths = (health ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (healths.length > 0) parsed.healths = [...(parsed.healths ?? []), ...healths];
  for (const key of ['tagSelector', 'labelSelector'] as const) {
    const text = selectorText(entry[key], join(path, key));
    if (text !== undefined && text.trim() !== '') parsed[key] = text;
  }
  for (const key of ['tags', 'labels'] as const) {
    const map = textMap(entry[key], join(path, key));
    if (map !== undefined && Object.keys(map).length > 0) parsed[key] = map;
  }
  if (Object.keys(parsed).length === 0) invalid(path, 'names no field to select resources by', SELECTOR_HINT);
  return parsed;
}

function selectors(value: unknown, path: string): PlaybookResourceSelector[] | undefined {
  if (!given(value)) return undefined;
  return list(value, path).map((entry, index) => selector(entry, join(path, index)));
}

function option(value: unknown, path: string): PlaybookParameterOption {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { label: String(value), value: String(value) };
  const entry = object(value, path);
  const optionValue = scalarText(entry.value, join(path, 'value'));
  if (optionValue === undefined) invalid(join(path, 'value'), 'is required');
  return { label: scalarText(entry.label, join(path, 'label')) ?? optionValue, value: optionValue };
}

function parameterProperties(value: unknown, path: string, type: PlaybookParameter['type']): PlaybookParameterProperties | undefined {
  if (!given(value)) {
    if (type === 'list') invalid(join(path, 'options'), 'is required for a list parameter', 'List the choices: properties: {options: [{label: Small, value: s}]}');
    return undefined;
  }
  const entry = object(value, path);
  const parsed: PlaybookParameterProperties = {};
  const size = oneOf(entry.size, join(path, 'size'), PLAYBOOK_PARAMETER_SIZES);
  if (size !== undefined) parsed.size = size;
  const language = optionalText(entry.language, join(path, 'language'))?.trim().toLowerCase();
  if (language !== undefined && language !== '') {
    if (!/^[a-z][a-z0-9+#.-]{0,31}$/.test(language)) invalid(join(path, 'language'), `'${language}' is not a language name`, 'Write yaml, json, or the name of another language (shell, python, …), edited as plain text');
    parsed.language = language;
  }
  for (const key of ['jsonSchemaUrl', 'format'] as const) {
    const text = optionalText(entry[key], join(path, key));
    if (text !== undefined && text.trim() !== '') parsed[key] = text.trim();
  }
  const options = list(entry.options, join(path, 'options')).map((item, index) => option(item, join(join(path, 'options'), index)));
  if (type === 'list' && options.length === 0) invalid(join(path, 'options'), 'is required for a list parameter', 'List the choices: options: [{label: Small, value: s}]');
  if (options.length > 0) parsed.options = options;
  const filter = selectors(entry.filter, join(path, 'filter'));
  if (filter !== undefined && filter.length > 0) parsed.filter = filter;
  const multiline = flag(entry.multiline, join(path, 'multiline'));
  if (multiline !== undefined) parsed.multiline = multiline;
  const minLength = numeric(entry.minLength, join(path, 'minLength'), true);
  const maxLength = numeric(entry.maxLength, join(path, 'maxLength'), true);
  if (minLength !== undefined) parsed.minLength = minLength;
  if (maxLength !== undefined) parsed.maxLength = maxLength;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) invalid(join(path, 'minLength'), `(${minLength}) is more than maxLength (${maxLength})`);
  const bound = type === 'duration' ? durationBound : (raw: unknown, at: string) => numeric(raw, at, false);
  const min = bound(entry.min, join(path, 'min'));
  const max = bound(entry.max, join(path, 'max'));
  if (min !== undefined) parsed.min = min;
  if (max !== undefined) parsed.max = max;
  if (min !== undefined && max !== undefined && min > max) invalid(join(path, 'min'), `(${min}) is more than max (${max})`);
  const regex = optionalText(entry.regex, join(path, 'regex'));
  if (regex !== undefined && regex !== '') {
    try {
      new RegExp(regex);
    } catch (error) {
      invalid(join(path, 'regex'), `is not a regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
    parsed.regex = regex;
  }
  return Object.keys(parsed).length === 0 ? undefined : parsed;
}

/** A duration parameter's bound as Mission Control writes it (`5m`), kept in milliseconds. */
function durationBound(value: unknown, path: string): number | undefined {
  const text = scalarText(value, path);
  if (text === undefined || text.trim() === '') return undefined;
  const ms = parseDurationMs(text.trim());
  if (ms === null) invalid(path, `'${text}' is not a duration`, 'Write a duration such as 5m or 1h');
  return ms;
}

/** Mission Control parameter types this server does not take yet, with what to use instead. */
export const REFUSED_PARAMETER_TYPES: Readonly<Record<string, string>> = {
  configs: 'A selector of many catalog items is not a parameter here: use a config parameter, or run the playbook per item',
};

/** The variable an exec script reads the parameter from: PARAM_ and the name upper-cased, `-` as `_`. */
function environmentName(name: string): string {
  return `PARAM_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** `names` maps each parameter's environment variable to the parameter that has it. */
function parameter(value: unknown, path: string, names: Map<string, string>): PlaybookParameter {
  const entry = object(value, path);
  const name = requiredText(entry.name, join(path, 'name'));
  if (!PARAMETER_NAME.test(name)) invalid(join(path, 'name'), `'${name}' must start with a letter or _ and hold only letters, digits, _ and -`);
  const variable = environmentName(name);
  const other = names.get(variable);
  if (other === name) invalid(join(path, 'name'), `'${name}' is the name of another parameter`, 'Give every parameter its own name');
  if (other !== undefined) invalid(join(path, 'name'), `'${name}' and '${other}' would both reach exec scripts as ${variable}`, 'Give every parameter a name that differs in more than case, - and _');
  names.set(variable, name);
  const refusedType = typeof entry.type === 'string' && Object.hasOwn(REFUSED_PARAMETER_TYPES, entry.type) ? REFUSED_PARAMETER_TYPES[entry.type] : undefined;
  if (refusedType !== undefined) invalid(join(path, 'type'), `is '${String(entry.type)}', which this server does not run`, refusedType);
  const parsed: PlaybookParameter = { name, type: oneOf(entry.type, join(path, 'type'), PLAYBOOK_PARAMETER_TYPES) ?? 'text' };
  for (const key of ['label', 'description', 'icon'] as const) {
    const text = optionalText(entry[key], join(path, key));
    if (text !== undefined) parsed[key] = text;
  }
  const required = flag(entry.required, join(path, 'required'));
  if (required !== undefined) parsed.required = required;
  if (parsed.type === 'secret' && given(entry.default)) invalid(join(path, 'default'), 'is refused on a secret parameter: the spec is no place for a secret', 'Remove the default; the person running the playbook types the secret');
  const fallback = templateField(entry.default, join(path, 'default'), false);
  if (fallback !== undefined) parsed.default = fallback;
  const properties = parameterProperties(entry.properties, join(path, 'properties'), parsed.type);
  if (properties !== undefined) parsed.properties = properties;
  return parsed;
}

/** exec env and spec.env refuse `valueFrom` alike: a secret handed to scripts can go anywhere (docs/security.md). */
const VALUE_FROM_PROBLEM = 'is not supported: values come from the spec, the parameters and the target';
const VALUE_FROM_HINT = 'Keep secrets in a connection, or write value';

function nameValues(value: unknown, path: string, envNames: boolean): Array<{ name: string; value: PlaybookSecretText }> | undefined {
  if (!given(value)) return undefined;
  return list(value, path).map((raw, index) => {
    const at = join(path, index);
    const entry = object(raw, at);
    if (given(entry.valueFrom)) invalid(join(at, 'valueFrom'), VALUE_FROM_PROBLEM, VALUE_FROM_HINT);
    const name = requiredText(entry.name, join(at, 'name'));
    if (envNames && !ENV_NAME.test(name)) invalid(join(at, 'name'), `'${name}' is not an environment variable name`, 'Use letters, digits and _, not starting with a digit');
    return { name, value: sealableField(entry.value, join(at, 'value')) ?? '' };
  });
}

/**
 * `spec.env`: named templates rendered once when a run starts and read by every action as `.env.<name>`. Plain text
 * only: a sealed value would be opened into every action's templates, where nothing says which destination may see it.
 */
function specEnv(value: unknown, path: string): PlaybookSpecEnvVar[] {
  const names = new Set<string>();
  return list(value, path).map((raw, index) => {
    const at = join(path, index);
    const entry = object(raw, at);
    if (given(entry.valueFrom)) invalid(join(at, 'valueFrom'), VALUE_FROM_PROBLEM, VALUE_FROM_HINT);
    onlyFields(entry, at, new Set(['name', 'value']), 'of spec.env', 'Write env: [{name, value}]');
    const name = requiredText(entry.name, join(at, 'name')).trim();
    if (!ENV_NAME.test(name)) invalid(join(at, 'name'), `'${name}' is not an env name`, 'Use letters, digits and _, not starting with a digit: templates read it as .env.<name>');
    if (names.has(name)) invalid(join(at, 'name'), `'${name}' is the name of another env entry`, 'Give every env entry its own name');
    names.add(name);
    if (isSealedSecret(entry.value)) invalid(join(at, 'value'), 'is sealed: spec.env values are templates every action reads, not secrets', 'Put the secret in the exec env of the action that needs it, or in a connection');
    return { name, value: templateField(entry.value, join(at, 'value'), false) ?? '' };
  });
}

/** `artifacts: [{path}]`: files the run keeps (modules/health/exec-artifacts.ts says which files may be). */
function artifactPaths(value: unknown, path: string): ExecArtifact[] {
  if (!Array.isArray(value)) invalid(path, 'must be a list of {path}', 'Write artifacts: [{path: /tmp/report.txt}]');
  if (value.length > MAX_ARTIFACT_PATHS) invalid(path, `holds ${value.length} entries; at most ${MAX_ARTIFACT_PATHS}`, 'Use a glob (*, **) to name several files at once');
  return value.map((item: unknown, index) => {
    const at = join(path, index);
    const entry = object(item, at);
    onlyFields(entry, at, new Set(['path']), 'of an artifact', 'An artifact takes path');
    const file = templateField(entry.path, join(at, 'path'), true) ?? '';
    if (file.trim() === '' || file.includes('\0')) invalid(join(at, 'path'), 'must name a file or a glob', 'Write a path such as /tmp/out/*.log, or one relative to where the script starts');
    return { path: file.trim() };
  });
}

function execAction(value: unknown, path: string): ExecAction {
  const entry = object(value, path);
  for (const key of Object.keys(entry)) {
    const hint = Object.hasOwn(EXEC_REFUSED, key) ? EXEC_REFUSED[key] : undefined;
    if (hint !== undefined) invalid(join(path, key), 'is not run by this server', hint);
  }
  onlyFields(entry, path, EXEC_FIELDS, 'of an exec action', 'An exec action takes script and env; pass values and secrets with env');
  const parsed: ExecAction = { script: codeField(entry.script, join(path, 'script'), 'script') };
  const env = nameValues(entry.env, join(path, 'env'), true);
  if (env !== undefined) parsed.env = env;
  if (given(entry.connections)) parsed.connections = execConnections(entry.connections, join(path, 'connections'));
  if (given(entry.artifacts)) parsed.artifacts = artifactPaths(entry.artifacts, join(path, 'artifacts'));
  if (given(entry.checkout)) parsed.checkout = execCheckout(entry.checkout, join(path, 'checkout'));
  return parsed;
}

const CHECKOUT_CREDENTIALS = 'Credentials are not handed to git: name a stored connection in checkout.connection';

/** `exec.checkout`: a repository, with a stored connection's credentials for its origin; inline credentials are refused by name. */
function execCheckout(value: unknown, path: string): ExecCheckout {
  const entry = object(value, path);
  for (const key of ['username', 'password', 'certificate']) {
    if (given(entry[key])) invalid(join(path, key), 'is not run by this server', CHECKOUT_CREDENTIALS);
  }
  if (given(entry.destination)) invalid(join(path, 'destination'), 'is not run by this server', 'The checkout is the folder the script starts in; copy files from there');
  onlyFields(entry, path, new Set(['url', 'branch', 'depth', 'type', 'connection']), 'of exec.checkout', 'A checkout takes url, branch, depth and connection');
  const url = requiredText(entry.url, join(path, 'url'));
  const problem = checkoutUrlProblem(url);
  if (problem !== null) invalid(join(path, 'url'), problem, CHECKOUT_CREDENTIALS);
  const parsed: ExecCheckout = { url: url.trim() };
  if (given(entry.branch)) {
    if (typeof entry.branch !== 'string' || !isCheckoutBranch(entry.branch)) invalid(join(path, 'branch'), CHECKOUT_BRANCH_MESSAGE);
    parsed.branch = entry.branch;
  }
  if (given(entry.depth)) {
    if (typeof entry.depth !== 'number' || !Number.isInteger(entry.depth) || entry.depth < 1 || entry.depth > MAX_CHECKOUT_DEPTH) invalid(join(path, 'depth'), `must be a whole number from 1 to ${MAX_CHECKOUT_DEPTH}`);
    parsed.depth = entry.depth;
  }
  if (given(entry.connection)) parsed.connection = requiredText(entry.connection, join(path, 'connection'));
  return parsed;
}

/**
 * `exec.connections` as Mission Control writes it, for the kinds this server hands to scripts and `fromConfigItem`
 * (templated); the others (eksPodIdentity, serviceAccount, gcp, opensearch) and inline credentials are refused by name.
 */
function execConnections(value: unknown, path: string): ExecConnections {
  const entry = object(value, path);
  const parsed: ExecConnections = {};
  for (const [key, raw] of Object.entries(entry)) {
    if (key === 'fromConfigItem') {
      const item = templateField(raw, join(path, key), true);
      if (item !== undefined) parsed.fromConfigItem = item.trim();
      continue;
    }
    const kind = PLAYBOOK_EXEC_CONNECTION_KINDS.find((known) => known === key);
    if (kind === undefined) invalid(join(path, key), 'is not run by this server', CONNECTION_KIND_HINT);
    const at = join(path, kind);
    const connection = object(raw, at);
    onlyFields(connection, at, new Set(['connection']), `of connections.${kind}`, 'Keep the credentials in a stored connection and name it: {connection: connection://ns/name}');
    parsed[kind] = { connection: requiredText(connection.connection, join(at, 'connection'), CONNECTION_KIND_HINT).trim() };
  }
  if (parsed.fromConfigItem !== undefined && parsed.kubernetes !== undefined) {
    invalid(join(path, 'fromConfigItem'), 'names a kubernetes connection beside kubernetes: one of them would not be used', 'Keep fromConfigItem (the item\'s own cluster) or kubernetes (a fixed one)');
  }
  return parsed;
}

function isAbsoluteHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function httpAction(value: unknown, path: string): HttpAction {
  const entry = object(value, path);
  onlyFields(entry, path, HTTP_FIELDS, 'of an http action', 'An http action takes url, connection, method, headers and body; keep credentials in a connection');
  const parsed: HttpAction = {};
  const connection = optionalText(entry.connection, join(path, 'connection'));
  if (connection !== undefined && connection.trim() !== '') parsed.connection = connection.trim();
  const url = templateField(entry.url, join(path, 'url'), false, true);
  if ((url === undefined || url.trim() === '') && parsed.connection === undefined) {
    invalid(join(path, 'url'), 'is required when no connection is named', 'Write url: https://…, or name a connection whose URL is used');
  }
  if (url !== undefined && url.trim() !== '') {
    if (parsed.connection === undefined && !holdsGoActions(url, 'all') && !isAbsoluteHttpUrl(url.trim())) {
      invalid(join(path, 'url'), `'${url}' is not an http or https URL`, 'Write a whole URL, or name a connection and give a path under its URL');
    }
    parsed.url = url.trim();
  }
  // Mission Control's web_request playbook takes the method as a parameter: a template is rendered and checked at run.
  const method = typeof entry.method === 'string' && holdsGoActions(entry.method, 'all') ? templateField(entry.method, join(path, 'method'), false) : oneOf(entry.method, join(path, 'method'), HTTP_METHODS, (text) => text.toUpperCase());
  if (method !== undefined) parsed.method = method;
  const headers = nameValues(entry.headers, join(path, 'headers'), false);
  if (headers !== undefined) parsed.headers = headers;
  const body = sealableField(entry.body, join(path, 'body'), true);
  if (body !== undefined) parsed.body = body;
  if (given(entry.awsSigV4)) {
    if (parsed.connection !== undefined) invalid(join(path, 'awsSigV4'), 'signs the request, so the request cannot also send the credentials of http.connection', 'Keep awsSigV4 and write the whole URL in url');
    parsed.awsSigV4 = awsSigV4(entry.awsSigV4, join(path, 'awsSigV4'));
  }
  if (flag(entry.templateBody, join(path, 'templateBody')) === false && typeof body === 'string' && /\{[{%]/.test(body)) {
    invalid(join(path, 'templateBody'), 'is false, but this server always templates the body, and this one holds a template', 'Remove templateBody: false, or write the braces so they are not a template');
  }
  return parsed;
}

function awsSigV4(value: unknown, path: string): HttpAwsSigV4 {
  const entry = object(value, path);
  for (const [field, note] of Object.entries(AWS_SIGV4_REFUSED)) if (Object.hasOwn(entry, field)) invalid(join(path, field), 'is not run by this server', note);
  onlyFields(entry, path, AWS_SIGV4_FIELDS, 'of awsSigV4', 'awsSigV4 takes connection (an aws connection), service and region');
  const region = optionalText(entry.region, join(path, 'region'));
  return {
    connection: requiredText(entry.connection, join(path, 'connection'), 'Name the aws connection whose keys sign: connection://namespace/name').trim(),
    service: requiredText(entry.service, join(path, 'service'), 'The AWS service the request is for, such as execute-api').trim(),
    ...(region === undefined || region.trim() === '' ? {} : { region: region.trim() }),
  };
}

function sqlAction(value: unknown, path: string): SqlAction {
  const entry = object(value, path);
  onlyFields(entry, path, SQL_FIELDS, 'of an sql action', 'An sql action takes connection, query, args and driver; keep the DSN in a connection');
  const parsed: SqlAction = {
    query: codeField(entry.query, join(path, 'query'), 'query'),
    connection: requiredText(entry.connection, join(path, 'connection'), 'Name the database connection: connection://namespace/name').trim(),
  };
  if (given(entry.args)) {
    parsed.args = list(entry.args, join(path, 'args')).map((arg, index) => templateField(arg, join(join(path, 'args'), index), false) ?? '');
  }
  const driver = oneOf(entry.driver, join(path, 'driver'), SQL_DRIVERS, (text) => text.toLowerCase());
  if (driver !== undefined) parsed.driver = driver;
  return parsed;
}

function notificationAction(value: unknown, path: string): NotificationAction {
  const entry = object(value, path);
  onlyFields(entry, path, NOTIFICATION_FIELDS, 'of a notification action', 'A notification action takes connection, title, message and properties');
  const parsed: NotificationAction = {
    connection: requiredText(entry.connection, join(path, 'connection'), 'Name the notification connection: connection://namespace/name').trim(),
    title: templateField(entry.title, join(path, 'title'), true) ?? '',
    message: templateField(entry.message, join(path, 'message'), true) ?? '',
  };
  if (given(entry.properties)) {
    const properties: Record<string, PlaybookSecretText> = {};
    for (const [key, value] of Object.entries(object(entry.properties, join(path, 'properties')))) {
      const parsedValue = sealableField(value, join(join(path, 'properties'), key));
      if (parsedValue !== undefined) properties[key] = parsedValue;
    }
    parsed.properties = properties;
  }
  return parsed;
}

/** A duration (`30s`), or Mission Control's CEL returning one (`params.delay`), checked when the action is due. */
function delayField(value: unknown, path: string): string | undefined {
  const text = scalarText(value, path);
  if (text === undefined || text.trim() === '') return undefined;
  if (text.trim() === '0') return undefined;
  if (durationOf(text) !== null) return durationField(text, path, PLAYBOOK_MAX_DELAY, false);
  const problem = checkDelaySyntax(text);
  if (problem !== null) invalid(path, `is neither a duration nor a CEL expression: ${problem}`, 'Write a duration such as 30s or 5m, or CEL returning one, such as params.delay');
  return text.trim();
}

function retryField(value: unknown, path: string): PlaybookActionRetry {
  const entry = object(value, path);
  onlyFields(entry, path, new Set(['limit', 'duration', 'exponent', 'jitter']), 'of retry', 'Write retry: {limit: 2, duration: 10s, exponent: {multiplier: 2}}');
  const limit = numeric(entry.limit, join(path, 'limit'), true);
  if (limit === undefined || limit < 1 || limit > RETRY_MAX_LIMIT) invalid(join(path, 'limit'), `must be a whole number from 1 to ${RETRY_MAX_LIMIT}`);
  const duration = durationField(entry.duration, join(path, 'duration'), RETRY_MAX_WAIT, false);
  if (duration === undefined) invalid(join(path, 'duration'), 'is required: how long to wait before the first retry', 'Write a duration such as 10s');
  const retry: PlaybookActionRetry = { limit, duration };
  if (given(entry.exponent)) {
    const exponent = object(entry.exponent, join(path, 'exponent'));
    onlyFields(exponent, join(path, 'exponent'), new Set(['multiplier']), 'of retry.exponent', 'Write exponent: {multiplier: 2}');
    const multiplier = numeric(exponent.multiplier, join(join(path, 'exponent'), 'multiplier'), true);
    if (multiplier !== undefined) retry.exponent = { multiplier };
  }
  const jitter = numeric(entry.jitter, join(path, 'jitter'), true);
  if (jitter !== undefined && jitter > 100) invalid(join(path, 'jitter'), 'must be from 0 to 100 (per cent)');
  if (jitter !== undefined) retry.jitter = jitter;
  return retry;
}

/** Templates are rendered by this server, which is where Mission Control's `host` renders them; `agent` needs agents. */
function templatesOnField(value: unknown, path: string): void {
  const text = optionalText(value, path);
  if (text !== undefined && text.trim() !== '' && text.trim() !== 'host') invalid(path, `is '${text}': this server renders templates itself, agents do not run playbooks yet`, 'Remove templatesOn, or write templatesOn: host');
}

function actionTypeRefusal(key: string, path: string): never {
  const known = Object.hasOwn(ACTION_TYPES_REFUSED, key);
  invalid(path, known ? `is a ${key} action, which this server does not run: it runs ${ACTION_TYPES_TEXT} actions` : `is not a field of an action: actions run ${ACTION_TYPES_TEXT}`, ACTION_TYPE_HINT);
}

function action(value: unknown, path: string, names: Set<string>): PlaybookAction {
  const entry = object(value, path);
  for (const key of Object.keys(entry)) if (!ACTION_FIELDS.has(key)) actionTypeRefusal(key, join(path, key));
  const name = requiredText(entry.name, join(path, 'name'), 'Give every action a name; later actions read its result by it');
  if (names.has(name)) invalid(join(path, 'name'), `'${name}' is the name of another action`, 'Give every action its own name');
  names.add(name);
  const types = PLAYBOOK_ACTION_TYPES.filter((type) => given(entry[type]));
  if (types.length === 0) invalid(path, `holds no action: it needs one of ${ACTION_TYPES_TEXT}`, ACTION_TYPE_HINT);
  if (types.length > 1) invalid(path, `holds ${types.join(' and ')}: an action is exactly one of ${ACTION_TYPES_TEXT}`, 'Split it into one action per type');
  const parsed: PlaybookAction = { name };
  const condition = optionalText(entry.if, join(path, 'if'));
  if (condition !== undefined && condition.trim() !== '') {
    const problem = checkConditionSyntax(condition);
    if (problem !== null) invalid(join(path, 'if'), `is not a valid CEL condition: ${problem}`, 'Write CEL such as success(), failure(), always() or params.env == "prod"');
    parsed.if = condition.trim();
  }
  const delay = delayField(entry.delay, join(path, 'delay'));
  if (delay !== undefined) parsed.delay = delay;
  if (given(entry.retry)) parsed.retry = retryField(entry.retry, join(path, 'retry'));
  if (given(entry.templatesOn)) templatesOnField(entry.templatesOn, join(path, 'templatesOn'));
  const timeout = durationField(entry.timeout, join(path, 'timeout'), PLAYBOOK_ACTION_MAX_TIMEOUT, true);
  if (timeout !== undefined) parsed.timeout = timeout;
  if (given(entry.runsOn)) runsOnField(entry.runsOn, join(path, 'runsOn'));
  if (given(entry.exec)) parsed.exec = execAction(entry.exec, join(path, 'exec'));
  if (given(entry.http)) parsed.http = httpAction(entry.http, join(path, 'http'));
  if (given(entry.sql)) parsed.sql = sqlAction(entry.sql, join(path, 'sql'));
  if (given(entry.notification)) parsed.notification = notificationAction(entry.notification, join(path, 'notification'));
  return parsed;
}

function approval(value: unknown, path: string): PlaybookApproval {
  const entry = object(value, path);
  const approvers = object(entry.approvers, join(path, 'approvers'));
  const people = textList(approvers.people, join(join(path, 'approvers'), 'people')) ?? [];
  const teams = textList(approvers.teams, join(join(path, 'approvers'), 'teams')) ?? [];
  if (people.length === 0 && teams.length === 0) invalid(join(path, 'approvers'), 'names nobody', 'List people (e-mail or id) or teams (name or id) who may approve');
  const parsed: PlaybookApproval = { approvers: {} };
  const type = oneOf(entry.type, join(path, 'type'), ['any', 'all'] as const, (text) => text.toLowerCase());
  if (type !== undefined) parsed.type = type;
  if (people.length > 0) parsed.approvers.people = people;
  if (teams.length > 0) parsed.approvers.teams = teams;
  return parsed;
}

/** Every field of the spec is one this server runs; the others are refused by name, never dropped. */
function specFields(source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) {
    const hint = Object.hasOwn(SPEC_REFUSED, key) ? SPEC_REFUSED[key] : undefined;
    if (hint !== undefined) invalid(join('spec', key), 'is not run by this server', hint);
    if (!SPEC_FIELDS.has(key)) invalid(join('spec', key), 'is not a field of a playbook this server runs', `A playbook takes ${[...SPEC_FIELDS].join(', ')}`);
  }
  if (given(source.templatesOn)) templatesOnField(source.templatesOn, 'spec.templatesOn');
}

function isResource(value: Record<string, unknown>): boolean {
  return given(value.kind) || (typeof value.apiVersion === 'string' && given(value.spec));
}

function documentOf(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') {
    if (!given(raw)) invalid('spec', 'is required: a playbook needs at least one action');
    return object(raw, 'spec');
  }
  if (raw.trim() === '') invalid('spec', 'is required: a playbook needs at least one action');
  let document: unknown;
  try {
    document = parseYaml(raw);
  } catch (error) {
    invalid('spec', `is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  return object(document, 'spec');
}

function metadataOf(value: unknown): PlaybookMetadata {
  if (!given(value)) return {};
  const metadata = object(value, 'metadata');
  const parsed: PlaybookMetadata = {};
  for (const key of ['name', 'namespace'] as const) {
    const text = optionalText(metadata[key], join('metadata', key));
    if (text !== undefined && text.trim() !== '') parsed[key] = text.trim();
  }
  return parsed;
}

/**
 * A stored or submitted playbook (an object, or YAML/JSON text): Mission Control's `kind: Playbook` resource or its spec
 * alone, checked against every save-time rule and normalised (parameter properties as native values, `type` text by
 * default, unknown and ignored Mission Control fields dropped). Throws OD_PLAYBOOK_SPEC naming the field.
 */
export function parsePlaybookResource(raw: unknown): ParsedPlaybook {
  const whole = documentOf(raw);
  const resource = isResource(whole);
  if (resource && given(whole.kind) && whole.kind !== 'Playbook') invalid('kind', `is '${String(whole.kind)}', not Playbook`, 'Paste a kind: Playbook resource, or the spec alone');
  const source = resource ? object(whole.spec, 'spec') : whole;
  specFields(source);
  const spec: PlaybookSpec = { actions: [] };
  for (const key of ['title', 'description', 'icon', 'category'] as const) {
    const text = optionalText(source[key], join('spec', key));
    if (text !== undefined && text.trim() !== '') spec[key] = text;
  }
  if (given(source.runsOn)) runsOnField(source.runsOn, 'spec.runsOn');
  for (const key of ['configs', 'components', 'checks'] as const) {
    const parsed = selectors(source[key], join('spec', key));
    if (parsed !== undefined && parsed.length > 0) spec[key] = parsed;
  }
  const parameterNames = new Map<string, string>();
  const parameters = list(source.parameters, 'spec.parameters').map((entry, index) => parameter(entry, join('spec.parameters', index), parameterNames));
  if (parameters.length > 0) spec.parameters = parameters;
  const actions = list(source.actions, 'spec.actions');
  if (actions.length === 0) invalid('spec.actions', 'is required: a playbook needs at least one action', `Add actions, each with a name and one of ${PLAYBOOK_ACTION_TYPES.join(', ')}`);
  const actionNames = new Set<string>();
  spec.actions = actions.map((entry, index) => action(entry, join('spec.actions', index), actionNames));
  if (given(source.approval)) spec.approval = approval(source.approval, 'spec.approval');
  const env = specEnv(source.env, 'spec.env');
  if (env.length > 0) spec.env = env;
  if (given(source.on)) {
    spec.on = triggers(source.on, 'spec.on');
    const unset = parameters.find((entry) => entry.required === true && entry.default === undefined);
    if (unset !== undefined) {
      invalid('spec.on', `cannot fill the required parameter '${unset.name}': an event or webhook runs the playbook with no one to type it`, 'Give every required parameter a default (a template such as {{.check.name}} works)');
    }
  }
  return { spec, metadata: resource ? metadataOf(whole.metadata) : null };
}

function trigger(entry: unknown, path: string, kind: PlaybookTriggerKind): PlaybookEventTrigger {
  const value = object(entry, path);
  onlyFields(value, path, new Set(['event', 'filter', 'labels']), `of on.${kind}`, 'Write {event, filter, labels}');
  const events: readonly string[] = PLAYBOOK_TRIGGER_EVENTS[kind];
  const event = requiredText(value.event, join(path, 'event'), `One of ${events.join(', ')}`).trim();
  if (!events.includes(event)) invalid(join(path, 'event'), `'${event}' is not a ${kind} event`, `One of ${events.join(', ')}`);
  const parsed: PlaybookEventTrigger = { event };
  const filter = optionalText(value.filter, join(path, 'filter'));
  if (filter !== undefined && filter.trim() !== '') {
    const problem = checkRuleFilter(filter);
    if (problem !== null) invalid(join(path, 'filter'), `is not a CEL condition this server can evaluate: ${problem}`, `A bool over ${kind === 'canary' ? 'check' : 'component'}, such as ${kind === 'canary' ? "check.type == 'http'" : "component.type == 'database'"}`);
    parsed.filter = filter;
  }
  if (given(value.labels)) {
    const labels = object(value.labels, join(path, 'labels'));
    parsed.labels = Object.fromEntries(Object.entries(labels).map(([key, label]) => [key, requiredText(label, join(join(path, 'labels'), key))]));
  }
  return parsed;
}

/** A credential of a webhook's authentication: a value, {value} or sealed; never a reference, which nothing here resolves. */
function webhookSecret(value: unknown, path: string): PlaybookSecretText {
  if (isSealedSecret(value)) return { $encrypted: value.$encrypted };
  if (isRecord(value) && given(value.valueFrom)) invalid(join(path, 'valueFrom'), 'is not supported here', 'Write the value: it is stored sealed');
  const text = isRecord(value) ? value.value : value;
  if (typeof text !== 'string' || text === '') invalid(path, 'is required', WEBHOOK_AUTH_HINT);
  return text;
}

function webhookAuthentication(value: unknown, path: string): PlaybookWebhookAuthentication {
  if (!given(value)) invalid(path, 'is required: without it anyone who can reach this server could start the playbook', WEBHOOK_AUTH_HINT);
  const entry = object(value, path);
  if (given(entry.jwt)) invalid(join(path, 'jwt'), 'is not run by this server: JWKS keys are not fetched', WEBHOOK_AUTH_HINT);
  onlyFields(entry, path, new Set(['basic', 'github', 'svix']), 'of webhook authentication', WEBHOOK_AUTH_HINT);
  const parsed: PlaybookWebhookAuthentication = {};
  if (given(entry.basic)) {
    const basic = object(entry.basic, join(path, 'basic'));
    onlyFields(basic, join(path, 'basic'), new Set(['username', 'password']), 'of basic authentication', WEBHOOK_AUTH_HINT);
    const username = webhookSecret(basic.username, join(join(path, 'basic'), 'username'));
    if (typeof username !== 'string') invalid(join(join(path, 'basic'), 'username'), 'must be text', WEBHOOK_AUTH_HINT);
    parsed.basic = { username, password: webhookSecret(basic.password, join(join(path, 'basic'), 'password')) };
  }
  if (given(entry.github)) {
    const github = object(entry.github, join(path, 'github'));
    onlyFields(github, join(path, 'github'), new Set(['token']), 'of github authentication', WEBHOOK_AUTH_HINT);
    parsed.github = { token: webhookSecret(github.token, join(join(path, 'github'), 'token')) };
  }
  if (given(entry.svix)) {
    const svix = object(entry.svix, join(path, 'svix'));
    onlyFields(svix, join(path, 'svix'), new Set(['secret', 'timestampTolerance']), 'of svix authentication', WEBHOOK_AUTH_HINT);
    parsed.svix = { secret: webhookSecret(svix.secret, join(join(path, 'svix'), 'secret')) };
    if (given(svix.timestampTolerance)) {
      const tolerance = requiredText(svix.timestampTolerance, join(join(path, 'svix'), 'timestampTolerance'));
      if (parseDurationMs(tolerance) === null) invalid(join(join(path, 'svix'), 'timestampTolerance'), `'${tolerance}' is not a duration`, 'Write a duration such as 5m');
      parsed.svix.timestampTolerance = tolerance;
    }
  }
  if (parsed.basic === undefined && parsed.github === undefined && parsed.svix === undefined) invalid(path, 'names no authentication', WEBHOOK_AUTH_HINT);
  return parsed;
}

/** `on.webhook` (Mission Control's PlaybookTriggerWebhook): a path of its own, and authentication, which is required here. */
function webhookTrigger(value: unknown, path: string): PlaybookWebhook {
  const entry = object(value, path);
  onlyFields(entry, path, new Set(['path', 'authentication']), 'of on.webhook', WEBHOOK_AUTH_HINT);
  const webhookPath = requiredText(entry.path, join(path, 'path')).trim();
  if (!new RegExp(PLAYBOOK_WEBHOOK_PATH_PATTERN).test(webhookPath)) {
    invalid(join(path, 'path'), `'${webhookPath}' is not a webhook path`, 'Use one URL segment of letters, digits, ., _ and - (at most 128), e.g. deploy-hook');
  }
  return { path: webhookPath, authentication: webhookAuthentication(entry.authentication, join(path, 'authentication')) };
}

function triggers(value: unknown, path: string): PlaybookTriggers {
  const source = object(value, path);
  const parsed: PlaybookTriggers = {};
  for (const [key, entries] of Object.entries(source)) {
    if (key === 'webhook') {
      parsed.webhook = webhookTrigger(entries, join(path, key));
      continue;
    }
    const hint = Object.hasOwn(TRIGGERS_REFUSED, key) ? TRIGGERS_REFUSED[key] : undefined;
    if (hint !== undefined) invalid(join(path, key), 'is not run by this server', hint);
    if (!Object.hasOwn(PLAYBOOK_TRIGGER_EVENTS, key)) invalid(join(path, key), 'is not an event kind', `Write ${[...Object.keys(PLAYBOOK_TRIGGER_EVENTS), 'webhook'].join(', ')}`);
    const kind = key as PlaybookTriggerKind;
    const list = Array.isArray(entries) ? entries : invalid(join(path, key), 'must be a list of {event, filter, labels}');
    if (list.length > 0) parsed[kind] = list.map((entry: unknown, index) => trigger(entry, join(join(path, key), index), kind));
  }
  if (Object.keys(parsed).length === 0) invalid(path, 'names no event', `Write on: {${Object.keys(PLAYBOOK_TRIGGER_EVENTS).join(', ')}: [{event: …}]} or on: {webhook: {path, authentication}}`);
  return parsed;
}

/** The spec of parsePlaybookResource, for callers that need nothing from the resource around it. */
export function parsePlaybookSpec(raw: unknown): PlaybookSpec {
  return parsePlaybookResource(raw).spec;
}

/** Action types that run code the spec's author wrote: a script on this host, or SQL with a stored connection's credentials. */
const CODE_ACTION_KEYS = ['exec', 'sql'] as const;

function actionsRunCode(actions: unknown): boolean {
  const entries = Array.isArray(actions) ? actions : isRecord(actions) ? Object.values(actions) : [];
  return entries.some((entry) => isRecord(entry) && CODE_ACTION_KEYS.some((key) => Object.hasOwn(entry, key)));
}

/**
 * True when any action holds an `exec` or `sql` key, in the spec alone or inside a resource, as an object or as YAML
 * text. Wider than the parser on purpose (like canarySpecRunsExec): a spec that does not validate still counts, and
 * text that does not parse counts when it mentions such a key, so a spec cannot slip one past the permission.
 */
export function playbookSpecRunsCode(raw: unknown): boolean {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = parseYaml(raw);
    } catch {
      return /(^|[\s{,"'-])(exec|sql)["']?\s*:/m.test(raw);
    }
  }
  if (!isRecord(value)) return false;
  return actionsRunCode(value.actions) || (isRecord(value.spec) && actionsRunCode(value.spec.actions));
}
