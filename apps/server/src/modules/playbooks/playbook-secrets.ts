import type pg from 'pg';
import { PLAYBOOK_CODE_TEMPLATE_PATTERN, type PlaybookAction, type PlaybookSecretText, type PlaybookWebhook } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { isSecretEnvelope } from '../../platform/sealed-values';
import { destinationOf, holdsSecrets, openSpec, sealSpec, sealSpecOrRefuse, SpecSecretError, type SealResult, type SecretProblem, type SpecLayout } from '../../platform/secret-fields';
import { scrubSecrets, SecretCollector } from '../health';
import type { ActionOutcome, OpenedNameValue, OpenedPlaybookAction } from './types';

/**
 * Playbook secrets (issue #31, ADR 0062): every exec env value, http header values off the public list, http bodies
 * and notification properties named like a secret are sealed for the playbook and for where their action sends them.
 * They stay sealed in the playbook, in every run's copy of the spec and through templating; a run opens them for the
 * destination its rendered action talks to, just before the runner gets the action, and scrubs them from what it keeps.
 */

const TEMPLATE = new RegExp(PLAYBOOK_CODE_TEMPLATE_PATTERN);
const SCHEME_AND_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
/** `valueFrom` of a templated value while the shared walker sees it: a reference, which the walker leaves alone. */
const TEMPLATE_REFERENCE = 'opsdeck:playbook-template';
const SPEC_CODE = 'OD_PLAYBOOK_SPEC';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trimmed(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Where an action sends what it is given: `exec` for a script on this host, the connection an http, sql or
 * notification action names, else the origin of an http action's URL. Computed from the stored action when a value
 * is sealed and from the rendered one when it is opened, so a URL whose template lands elsewhere opens nothing.
 */
export function actionDestination(action: Record<string, unknown>): string {
  if (isRecord(action.exec)) return 'exec';
  for (const type of ['http', 'sql', 'notification'] as const) {
    const block = action[type];
    if (!isRecord(block)) continue;
    const connection = trimmed(block.connection);
    if (connection !== '') return connection;
    return type === 'http' ? destinationOf({ url: block.url }) : '';
  }
  return '';
}

/** The spec's actions are its parts; everything else in a playbook spec is text the parser allows nowhere else. */
export const PLAYBOOK_LAYOUT: SpecLayout = {
  kind: 'playbook',
  env: 'all',
  parts: (spec) =>
    Array.isArray(spec.actions) ? spec.actions.flatMap((action: unknown, index) => (isRecord(action) ? [{ path: `actions[${index}]`, value: action }] : [])) : [],
  destination: actionDestination,
};

/** One action as a run opens it, held under a label so errors name the action; its bindings are those of the spec. */
const ACTION_LAYOUT: SpecLayout = {
  ...PLAYBOOK_LAYOUT,
  parts: (labelled) => Object.entries(labelled).flatMap(([label, action]) => (isRecord(action) ? [{ path: label, value: action }] : [])),
};

/**
 * Text that holds a template is a reference filled in at run time (`{{ config.tags.cluster }}`), never a credential
 * written into the spec, so it stays readable and templated; the walker is handed it as a reference (`valueFrom`),
 * which it leaves as it is. Only the positions a secret may take are marked: a URL is always checked as written.
 */
function markTemplate(value: unknown): unknown {
  return typeof value === 'string' && TEMPLATE.test(value) ? { value, valueFrom: TEMPLATE_REFERENCE } : value;
}

function unmarkTemplate(value: unknown): unknown {
  return isRecord(value) && value.valueFrom === TEMPLATE_REFERENCE && typeof value.value === 'string' ? value.value : value;
}

function mapNameValues(list: unknown, map: (value: unknown) => unknown): unknown {
  return Array.isArray(list) ? list.map((entry: unknown) => (isRecord(entry) && 'value' in entry ? { ...entry, value: map(entry.value) } : entry)) : list;
}

function mapSecretPositions(action: unknown, map: (value: unknown) => unknown): unknown {
  if (!isRecord(action)) return action;
  const mapped: Record<string, unknown> = { ...action };
  if (isRecord(action.exec) && action.exec.env !== undefined) mapped.exec = { ...action.exec, env: mapNameValues(action.exec.env, map) };
  if (isRecord(action.http)) {
    const http: Record<string, unknown> = { ...action.http };
    if (http.headers !== undefined) http.headers = mapNameValues(http.headers, map);
    if (http.body !== undefined) http.body = map(http.body);
    mapped.http = http;
  }
  if (isRecord(action.notification) && isRecord(action.notification.properties)) {
    const properties = Object.fromEntries(Object.entries(action.notification.properties).map(([name, value]) => [name, map(value)]));
    mapped.notification = { ...action.notification, properties };
  }
  return mapped;
}

function actionsOf(spec: Record<string, unknown>): { actions: unknown[] } {
  return { actions: Array.isArray(spec.actions) ? spec.actions.map((action: unknown) => mapSecretPositions(action, markTemplate)) : [] };
}

function unmarkedActions(actions: readonly unknown[]): unknown[] {
  return actions.map((action) => mapSecretPositions(action, unmarkTemplate));
}

function holdsEnvelope(value: unknown): boolean {
  if (isSecretEnvelope(value)) return true;
  if (Array.isArray(value)) return value.some(holdsEnvelope);
  return isRecord(value) && Object.values(value).some(holdsEnvelope);
}

/** A URL whose scheme, host or port is (or holds) a template: where it goes is only known once it is rendered. */
function hostIsTemplated(url: string): boolean {
  const origin = SCHEME_AND_HOST.exec(url.trim());
  return TEMPLATE.test(origin === null ? url : origin[0]);
}

/**
 * A sealed header or body goes only to the origin it was sealed for, so an http action that holds one must write its
 * host out: with a template there, a run could aim it anywhere (the run would refuse to open it, but the save says so
 * first). A connection pins the origin itself.
 */
function refuseTemplatedHosts(actions: readonly unknown[]): void {
  actions.forEach((action, index) => {
    if (!isRecord(action) || !isRecord(action.http)) return;
    const { url, connection, headers, body } = action.http;
    if (trimmed(connection) !== '' || typeof url !== 'string' || !hostIsTemplated(url)) return;
    if (!holdsEnvelope(headers) && !holdsEnvelope(body)) return;
    const field = `spec.actions[${index}].http.url`;
    throw new AppError(
      400,
      SPEC_CODE,
      `The playbook spec is not valid: ${field} has a template in its host, and the action sends sealed headers or a sealed body`,
      field,
      'Write the scheme and host out (https://api.example.com/{{ params.path }}), or name a connection; sealed values go only to the host they were sealed for',
    );
  });
}

/**
 * The write path: plaintext in secret positions sealed for this playbook and each action's destination, envelopes kept
 * where they still open and dropped where they do not (the action's URL or connection changed, or they were copied
 * from elsewhere). A credential or password in a URL, an envelope of another key, and sealed values on an http action
 * whose host is a template are a coded 400.
 */
export function sealPlaybookSpec(key: Buffer, playbookId: string, spec: unknown): unknown {
  if (!isRecord(spec)) return spec;
  const actions = unmarkedActions(sealSpecOrRefuse(key, PLAYBOOK_LAYOUT, playbookId, actionsOf(spec)).spec.actions);
  refuseTemplatedHosts(actions);
  const sealed: Record<string, unknown> = { ...spec, actions };
  if (isRecord(spec.on) && spec.on.webhook !== undefined) {
    sealed.on = { ...spec.on, webhook: sealSpecOrRefuse(key, WEBHOOK_LAYOUT, playbookId, webhookOf(spec)).spec.webhook };
  }
  return sealed;
}

/** Whether a spec holds a secret to seal or an envelope to check, so its write must name one row. */
export function playbookHoldsSecrets(spec: unknown): boolean {
  return isRecord(spec) && (holdsSecrets(PLAYBOOK_LAYOUT, actionsOf(spec)) || holdsSecrets(WEBHOOK_LAYOUT, webhookOf(spec)));
}

/**
 * `on.webhook`'s credentials (a basic password, a GitHub or Svix secret): bound to the playbook and their place in the
 * spec, and only ever compared with what a webhook request brings, never sent anywhere, so they have no destination.
 */
const WEBHOOK_LAYOUT: SpecLayout = { kind: 'playbook', env: 'all', parts: () => [] };

function webhookOf(spec: Record<string, unknown>): { webhook: unknown } {
  return { webhook: isRecord(spec.on) ? spec.on.webhook : undefined };
}

/** The webhook's credentials opened for one request; SpecSecretError when one was sealed for another playbook. */
export function openWebhook(key: Buffer, playbookId: string, webhook: PlaybookWebhook): PlaybookWebhook {
  return openSpec(key, WEBHOOK_LAYOUT, playbookId, { webhook })['webhook'] as PlaybookWebhook;
}

function openedText(value: PlaybookSecretText, field: string): string {
  // openSpec replaced every envelope or threw; one left here would be a walker bug, refused like any unopenable one.
  if (typeof value !== 'string') throw new SpecSecretError(field, 'malformed');
  return value;
}

function openedNameValues(list: ReadonlyArray<{ name: string; value: PlaybookSecretText }> | undefined, field: string): OpenedNameValue[] | undefined {
  return list?.map((entry, index) => ({ name: entry.name, value: openedText(entry.value, `${field}[${index}].value`) }));
}

/**
 * The rendered action with every sealed value opened for this playbook and the destination the action now talks to;
 * SpecSecretError (its message names the field, never the value) when one was sealed for another playbook, field or
 * destination.
 */
export function openPlaybookAction(key: Buffer, playbookId: string, action: PlaybookAction): OpenedPlaybookAction {
  const label = `action '${action.name}'`;
  // openSpec keeps the shape it is given and only swaps envelopes for their text, so this is the action type again.
  const opened = openSpec(key, ACTION_LAYOUT, playbookId, { [label]: { ...action } })[label] as PlaybookAction;
  const { exec, http, notification, ...rest } = opened;
  const result: OpenedPlaybookAction = { ...rest };
  if (exec !== undefined) {
    const env = openedNameValues(exec.env, `${action.name}.exec.env`);
    result.exec = {
      script: exec.script,
      ...(exec.connections === undefined ? {} : { connections: exec.connections }),
      ...(exec.checkout === undefined ? {} : { checkout: exec.checkout }),
      ...(exec.artifacts === undefined ? {} : { artifacts: exec.artifacts }),
      ...(env === undefined ? {} : { env }),
    };
  }
  if (http !== undefined) {
    const { headers, body, ...request } = http;
    const openedHeaders = openedNameValues(headers, `${action.name}.http.headers`);
    result.http = {
      ...request,
      ...(openedHeaders === undefined ? {} : { headers: openedHeaders }),
      ...(body === undefined ? {} : { body: openedText(body, `${action.name}.http.body`) }),
    };
  }
  if (notification !== undefined) {
    const { properties, ...message } = notification;
    result.notification = {
      ...message,
      ...(properties === undefined
        ? {}
        : { properties: Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, openedText(value, `${action.name}.notification.properties.${name}`)])) }),
    };
  }
  return result;
}

/**
 * Runs one rendered action with its secrets opened: an action whose secret does not open where it now points fails
 * with that reason before anything is sent, and every opened value (and `alsoSecret`: the run's secret parameters) is
 * scrubbed from the result and error kept.
 */
export async function runWithOpenedSecrets(
  key: Buffer,
  playbookId: string,
  action: PlaybookAction,
  alsoSecret: readonly string[],
  run: (opened: OpenedPlaybookAction) => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  let opened: OpenedPlaybookAction;
  try {
    opened = openPlaybookAction(key, playbookId, action);
  } catch (error) {
    if (error instanceof SpecSecretError) return { status: 'failed', result: {}, error: error.message };
    throw error;
  }
  const secrets = new SecretCollector();
  secrets.addOpenedSpec(action, opened);
  for (const value of alsoSecret) secrets.add(value);
  // A response often echoes a value inside JSON, where its quotes and backslashes come escaped.
  for (const value of secrets.values()) secrets.add(JSON.stringify(value).slice(1, -1));
  return scrubSecrets(await run(opened), secrets.values());
}

export interface StoredPlaybookSecretsReport {
  playbooks: number;
  runs: number;
  /** Values left as they are: a credential in a URL, or an envelope this key cannot open. */
  problems: Array<SecretProblem & { table: 'playbooks' | 'playbook_runs'; id: string }>;
}

function sealStored(key: Buffer, playbookId: string, spec: unknown): SealResult<unknown> | null {
  if (!isRecord(spec)) return null;
  const result = sealSpec(key, PLAYBOOK_LAYOUT, playbookId, actionsOf(spec));
  return { ...result, spec: { ...spec, actions: unmarkedActions(result.spec.actions) } };
}

/** Specs that may hold a secret position at all; the others are never read. */
const MAY_HOLD_SECRETS = `jsonb_path_exists(spec, '$.actions[*] ? (exists(@.exec.env) || exists(@.http.headers) || exists(@.http.body) || exists(@.notification.properties))')`;

async function sealTable(pool: pg.Pool, key: Buffer, table: 'playbooks' | 'playbook_runs', report: StoredPlaybookSecretsReport): Promise<number> {
  const owner = table === 'playbooks' ? 'id' : 'playbook_id';
  const rows = await pool.query<{ id: string; owner: string; spec: unknown }>(
    `select id, ${owner} as owner, spec from ${table} where spec is not null and jsonb_typeof(spec) = 'object' and ${MAY_HOLD_SECRETS}`,
  );
  let changed = 0;
  for (const row of rows.rows) {
    const sealed = sealStored(key, row.owner, row.spec);
    if (sealed === null) continue;
    report.problems.push(...sealed.problems.map((problem) => ({ ...problem, table, id: row.id })));
    if (sealed.sealed === 0) continue;
    // Compared with what was read, so an edit made meanwhile is never overwritten; that edit was sealed by its writer.
    const updated = await pool.query(`update ${table} set spec = $2 where id = $1 and spec = $3::jsonb`, [row.id, JSON.stringify(sealed.spec), JSON.stringify(row.spec)]);
    changed += updated.rowCount ?? 0;
  }
  return changed;
}

/**
 * Seals what playbooks written before issue #31 hold in plaintext, and the copies their runs kept (bound to the run's
 * playbook, which is what a run opens them for). Envelopes are never re-bound here: a playbook never held an unbound
 * one, so one found is a copy and stays unopenable.
 */
export async function sealStoredPlaybookSecrets(pool: pg.Pool, key: Buffer): Promise<StoredPlaybookSecretsReport> {
  const report: StoredPlaybookSecretsReport = { playbooks: 0, runs: 0, problems: [] };
  report.playbooks = await sealTable(pool, key, 'playbooks', report);
  report.runs = await sealTable(pool, key, 'playbook_runs', report);
  return report;
}
