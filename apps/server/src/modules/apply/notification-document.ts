import type pg from 'pg';
import { checkNotificationPlaybooks } from '../notifications';
import { applyErrors } from './apply-errors';
import type { ApplyDocument } from './apply-documents';

/** How this server treats one field of a Notification: it runs, or it is refused with the reason (docs/compatibility.md). */
export interface FieldRule {
  runs: boolean;
  note: string;
}

/**
 * Mission Control's Notification (mission-control.flanksource.com/v1) as a notifications row (issue #32). What the
 * console's notifications do not do is refused by name, never saved and dropped: a notification that would send to a
 * Shoutrrr URL in Mission Control and not here would leave undone what its author expected.
 */
export const NOTIFICATION_SPEC_FIELDS: Readonly<Record<string, FieldRule>> = {
  events: { runs: true, note: 'The events of spec 001 §9 (check.passed, check.failed, component.*, config.*, two playbook events); any other is refused by name' },
  filter: {
    runs: true,
    note: "CEL over the event's resource (check, component, config, playbook and run) and event, compiled on save; matchQuery(.check, \"type!=http labels.x=y\") runs terms that must all hold (or, | and parentheses are refused)",
  },
  title: { runs: true, note: 'A Go template over the same variables plus permalink, source_event and event_time, with the gomplate functions playbooks have' },
  template: { runs: true, note: 'The Markdown body, a Go template like title' },
  to: { runs: true, note: 'Exactly one recipient, below' },
  repeatInterval: {
    runs: true,
    note: 'Stored as properties.repeatInterval: an event of a resource already sent by this notification inside the interval is recorded as skipped, not sent again',
  },
  groupByInterval: { runs: true, note: 'Stored as properties.groupByInterval, with groupBy only: how long a group lives from its creation (default 24h)' },
  groupBy: {
    runs: true,
    note: "Stored as properties.groupBy (keys type, description, status_reason, label:<key>, tag:<key>; any other is refused): the resources of this notification's check, component and config events are gathered into groups by those values; a message lists the other members that still have a health the notification sends (groupedResources, under Also failing in the default message), and with repeatInterval one message per group and event goes out inside the interval, the rest recorded as skipped. With waitFor, the group gathers during the wait",
  },
  waitFor: {
    runs: true,
    note: 'Stored as properties.waitFor: a health event (check.*, component.*, config.healthy/unhealthy/warning/unknown) is held that long and then sent only if the resource still has that health, else recorded as skipped; other events are sent as they happen',
  },
  waitForEvalPeriod: {
    runs: true,
    note: "Stored as properties.waitForEvalPeriod, with waitFor only: added to the wait of config events (Mission Control re-scrapes a Kubernetes item first; this server reads what its scrapers last stored)",
  },
  inhibitions: {
    runs: true,
    note: "Stored as properties.inhibitions, with repeatInterval and config events only: a config event of an item whose type is in an inhibition's to is recorded as skipped (Inhibited) when this notification sent a message, inside the repeat interval, for a related item of the from type; the relation is walked against direction (outgoing, incoming, all) up to depth (default 5, at most 10) through the parent tree, and config relationships too with soft: true",
  },
  fallback: {
    runs: true,
    note: "Stored as properties.fallback: a recipient with the fields of spec.to (the same ones run and are refused) and delay. When a send to the notification's recipient fails, the message goes to this recipient after delay (default at once), unless a retry delivered it first",
  },
};

export const NOTIFICATION_RECIPIENT_FIELDS: Readonly<Record<string, FieldRule>> = {
  person: { runs: true, note: 'A person here, by email address (or id): email to their address' },
  team: { runs: true, note: "A team here, by name (or id): the team's notification channels, else each member by email" },
  email: { runs: true, note: 'One email address, sent through the first email connection (namespace default first); stored as that connection with the address as its to option' },
  connection: { runs: true, note: 'connection://namespace/name of a connection a provider delivers to (email, slack, generic_webhook, teams, discord, google_chat, mattermost, ntfy, telegram), stored or applied in the same change' },
  properties: { runs: true, note: "The connection's provider options (a Slack channel, …); only beside to.connection" },
  url: { runs: false, note: 'Shoutrrr URLs are not sent to by this server: create a connection and name it in to.connection' },
  playbook: {
    runs: true,
    note: "A playbook here, as namespace/name (or a name, the notification's namespace first, or an id). Instead of a message, a run of it is requested on the event's check, component or catalog item (none for playbook events), by no person, with its parameters' defaults; its approval still holds the run. It must exist (else OD_APPLY_DOCUMENT, as for a person or team) and be offered for the kinds of the notification's events, with a default for every required parameter (else OD_NOTIFICATION_PLAYBOOK); applying it without playbook_runs write is refused (OD_NOTIFICATION_PLAYBOOK_FORBIDDEN); a resource its selectors do not match is recorded in the send history as failed, with why, and goes to the fallback; a requested run is recorded as sent with its id",
  },
  webhook: { runs: false, note: 'webhook receivers are not run by this server: create a generic_webhook connection and name it in to.connection' },
};

const RECIPIENTS = ['person', 'team', 'email', 'connection', 'playbook'] as const;
/** The spec fields kept in the row's properties, under the same names. */
const PROPERTY_FIELDS = ['repeatInterval', 'waitFor', 'waitForEvalPeriod', 'inhibitions', 'groupBy', 'groupByInterval'] as const;

/** Where the notification save rules' details (a column) sit in the document. */
export const NOTIFICATION_FIELDS: Readonly<Record<string, string>> = {
  events: 'spec.events',
  filter: 'spec.filter',
  title: 'spec.title',
  template: 'spec.template',
  custom_services: 'spec.to',
  'person_id, team_id, custom_services': 'spec.to',
  playbook_id: 'spec.to.playbook',
  'properties.repeatInterval': 'spec.repeatInterval',
  'properties.waitFor': 'spec.waitFor',
  'properties.waitForEvalPeriod': 'spec.waitForEvalPeriod',
  'properties.inhibitions': 'spec.inhibitions',
  'properties.fallback': 'spec.fallback',
  'properties.groupBy': 'spec.groupBy',
  'properties.groupByInterval': 'spec.groupByInterval',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Refusal = (field: string, problem: string) => Error;

function text(value: unknown, field: string, refuse: Refusal): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw refuse(field, `${field} must be text`);
  return value;
}

/** The first email connection, namespace `default` first: whom the delivery engine sends people's email through. */
async function emailConnection(pool: pg.Pool): Promise<string | null> {
  const result = await pool.query<{ namespace: string; name: string }>(
    `select namespace, name from connections where type in ('email', 'smtp') and deleted_at is null order by (namespace = 'default') desc, created_at limit 1`,
  );
  const row = result.rows[0];
  return row === undefined ? null : `connection://${row.namespace}/${row.name}`;
}

type Recipient = { person_id: string } | { team_id: string } | { custom_services: Array<Record<string, string>> } | { playbook_id: string };

/**
 * The recipient of spec.to, or of spec.fallback (`at`), whose own fields (`own`, the fallback's delay) are not
 * recipients.
 */
async function recipientOf(
  pool: pg.Pool,
  namespace: string,
  to: Record<string, unknown>,
  at: 'to' | 'fallback',
  refuse: Refusal,
  notRun: Refusal,
  own: readonly string[] = [],
): Promise<Recipient> {
  for (const key of Object.keys(to)) {
    if (own.includes(key)) continue;
    const rule = NOTIFICATION_RECIPIENT_FIELDS[key];
    if (rule === undefined) throw refuse(`spec.${at}.${key}`, `${at}.${key} is not a recipient of a Notification`);
    if (!rule.runs) throw notRun(`spec.${at}.${key}`, `spec.${at}.${key}: ${rule.note}`);
  }
  const named = RECIPIENTS.filter((key) => to[key] !== undefined && to[key] !== '');
  if (named.length !== 1) throw refuse(`spec.${at}`, `${at} must name exactly one of ${RECIPIENTS.join(', ')}${named.length > 1 ? ` (it names ${named.join(' and ')})` : ''}`);
  const [key] = named as [(typeof RECIPIENTS)[number]];
  const value = text(to[key], `spec.${at}.${key}`, refuse) ?? '';
  const properties: Record<string, string> = {};
  if (to.properties !== undefined) {
    if (!isRecord(to.properties)) throw refuse(`spec.${at}.properties`, `${at}.properties must be a map of strings`);
    if (key !== 'connection') throw refuse(`spec.${at}.properties`, `${at}.properties are provider options of a connection; this recipient names no connection`);
    for (const [name, option] of Object.entries(to.properties)) {
      if (typeof option !== 'string') throw refuse(`spec.${at}.properties.${name}`, `${at}.properties.${name} must be text`);
      properties[name] = option;
    }
  }
  if (key === 'person') {
    const result = await pool.query<{ id: string }>(
      `select id from people where deleted_at is null and (lower(email) = lower($1) or id::text = $1) order by created_at limit 1`,
      [value],
    );
    const id = result.rows[0]?.id;
    if (id === undefined) throw refuse(`spec.${at}.person`, `${at}.person names ${value}, who is not a person here (give their email address)`);
    return { person_id: id };
  }
  if (key === 'team') {
    const result = await pool.query<{ id: string }>(`select id from teams where deleted_at is null and (name = $1 or id::text = $1) order by created_at limit 1`, [value]);
    const id = result.rows[0]?.id;
    if (id === undefined) throw refuse(`spec.${at}.team`, `${at}.team names the team ${value}, which does not exist here`);
    return { team_id: id };
  }
  if (key === 'connection') return { custom_services: [{ connection: value, ...properties }] };
  if (key === 'playbook') return { playbook_id: await playbookId(pool, value, namespace, at, refuse) };
  if (!/^[^\s@,]+@[^\s@,]+$/.test(value)) throw refuse(`spec.${at}.email`, `${at}.email must be one email address, not ${JSON.stringify(value)}`);
  const connection = await emailConnection(pool);
  if (connection === null) throw refuse(`spec.${at}.email`, `${at}.email is sent through an email connection, and there is none: create one in Settings → Connections first`);
  return { custom_services: [{ connection, to: value }] };
}

/**
 * The id of the playbook `reference` names, as Mission Control reads it: namespace/name, or a bare name (or id), looked
 * for in the notification's own namespace first. A playbook that does not exist is refused, as a person or team is.
 */
async function playbookId(pool: pg.Pool, reference: string, namespace: string, at: 'to' | 'fallback', refuse: Refusal): Promise<string> {
  const slash = reference.indexOf('/');
  const result =
    slash === -1
      ? await pool.query<{ id: string }>(
          `select id from playbooks where deleted_at is null and (name = $1 or id::text = $1) order by (namespace = $2) desc, created_at limit 1`,
          [reference, namespace],
        )
      : await pool.query<{ id: string }>(`select id from playbooks where deleted_at is null and namespace = $1 and name = $2`, [reference.slice(0, slash), reference.slice(slash + 1)]);
  const id = result.rows[0]?.id;
  if (id === undefined) throw refuse(`spec.${at}.playbook`, `${at}.playbook names the playbook ${reference}, which does not exist here (apply it first)`);
  return id;
}

/** spec.fallback as properties.fallback: its recipient as the row's own recipient columns, and its delay as written. */
async function fallbackOf(pool: pg.Pool, namespace: string, fallback: unknown, refuse: Refusal, notRun: Refusal): Promise<Record<string, unknown>> {
  if (!isRecord(fallback)) throw refuse('spec.fallback', 'spec.fallback must be a recipient like spec.to, with an optional delay');
  const recipient = await recipientOf(pool, namespace, fallback, 'fallback', refuse, notRun, ['delay']);
  return fallback.delay === undefined || fallback.delay === '' ? recipient : { ...recipient, delay: fallback.delay };
}

/** The notifications row of a Notification document; throws a coded 400 naming the field for what is not run. */
export async function notificationColumns(pool: pg.Pool, document: ApplyDocument, location: (field: string) => string): Promise<Record<string, unknown>> {
  const refuse = (field: string, problem: string) => applyErrors.document(location(field), problem);
  const notRun = (field: string, problem: string) => applyErrors.notRun(location(field), 'Notification', problem);
  const { spec } = document;
  for (const key of Object.keys(spec)) {
    const rule = NOTIFICATION_SPEC_FIELDS[key];
    if (rule === undefined) throw refuse(`spec.${key}`, `spec.${key} is not a field of a Notification`);
    if (!rule.runs) throw notRun(`spec.${key}`, `spec.${key}: ${rule.note}`);
  }
  if (!isRecord(spec.to)) throw refuse('spec.to', 'spec.to is required: the person, team, email address, connection or playbook to notify');
  const properties: Record<string, unknown> = Object.fromEntries(PROPERTY_FIELDS.filter((field) => spec[field] !== undefined && spec[field] !== '').map((field) => [field, spec[field]]));
  if (spec.fallback !== undefined && spec.fallback !== null) properties.fallback = await fallbackOf(pool, document.namespace, spec.fallback, refuse, notRun);
  const row = {
    events: spec.events,
    title: text(spec.title, 'spec.title', refuse),
    template: text(spec.template, 'spec.template', refuse),
    filter: text(spec.filter, 'spec.filter', refuse),
    template_syntax: 'gotemplate',
    properties,
    person_id: null,
    team_id: null,
    custom_services: null,
    playbook_id: null,
    ...(await recipientOf(pool, document.namespace, spec.to, 'to', refuse, notRun)),
  };
  // As the data API judges a playbook recipient (its details name the column, which the apply maps to the field).
  await checkNotificationPlaybooks(pool, [row]);
  return row;
}
