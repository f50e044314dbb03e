import { notificationResourcePath, parseDurationMs } from '@opsdeck/shared';
import type pg from 'pg';
import { EventQueueConsumer, type EventHandler, type QueuedEvent } from '../../platform/event-queue';
import { inTransaction } from '../../db/transaction';
import { requestPlaybookRun } from '../playbooks';
import { resolveConnection, type ResolvedConnection } from '../connections';
import type { DeliverNotification, NotificationMessage } from '../notification-providers';
import { evaluateFilter } from './notification-filter';
import { familyOf, isNotificationEvent, isStateEvent, NOTIFICATION_EVENTS, type EventFamily, type NotificationEvent } from './notification-events';
import { DEFAULT_TEMPLATES, renderTemplate, type TemplateSyntax } from './notification-templates';
import { resolveRecipients, type Recipient } from './recipients';
import { claimDueWaits, currentHealth, dropWait, healthOfEvent, holdEvent, retryWait, settleWait, waitLabel, waitMsOf, type DueWait } from './notification-wait';
import { failedRecipientsOf, fallbackOf, FALLBACK_RECIPIENT, holdFallback, primaryStillFailed } from './notification-fallback';
import { findInhibitor, parseInhibitions } from './notification-inhibitions';
import { groupedResources, groupHash, groupingOf, joinGroup } from './notification-groups';

/** The event-queue consumer name: it gets its own copy of each of the 15 events (ADR 0055). */
export const NOTIFICATION_CONSUMER = 'notifications';

/**
 * The first state change of a resource a notification sends to a recipient opens a window this long; further changes
 * inside it are recorded as skipped, not sent. A notification overrides it with properties.flapWindowSeconds (0: off).
 */
export const DEFAULT_FLAP_WINDOW_MS = 5 * 60_000;
/** One provider call; the queue retries a failure with its backoff. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** The `properties` row naming the console's address for links in messages (e.g. https://opsdeck.example.com). */
export const PUBLIC_URL_PROPERTY = 'public.url';

const ERROR_LIMIT = 2000;
/**
 * How long the console's address and a resolved connection are reused: a burst of events costs one lookup, and a
 * changed connection or address is used within seconds.
 */
const LOOKUP_CACHE_MS = 5000;

/** The value of `load`, fetched again once it is older than `ttlMs`; a failed load is not kept. */
function cached<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let value: { promise: Promise<T>; at: number } | null = null;
  return () => {
    if (value === null || Date.now() - value.at > ttlMs) {
      const promise = load();
      const entry = { promise, at: Date.now() };
      value = entry;
      promise.catch(() => {
        if (value === entry) value = null;
      });
    }
    return value.promise;
  };
}

interface RecordEntry {
  notificationId: string;
  event: QueuedEvent;
  resourceId: string | null;
  recipientKey: string;
  personId: string | null;
  body: string;
  /** What a new row starts as. */
  status: 'sending' | 'skipped' | 'failed';
  /** Holds a new row back as skipped while a flap window of the notification, resource and recipient is open. */
  flap: { windowMs: number } | null;
  /** The notification group (groupBy) the event's resource is in, when it groups. */
  groupId?: string | null;
  reason?: string;
  error?: string;
  /** Instead of notification:event:recipient: a fallback's send to a recipient the primary may share. */
  idempotencyKey?: string;
}

/**
 * The delivery consumer. Its subscriptions are the events live notifications name, kept by a trigger on notifications
 * (migration 0098), not its handlers' names: subscribing to all 15 would make every catalog write queue events that
 * no notification reads. It still handles all 15, so events queued before a notification was removed drain.
 */
export class NotificationDeliveryConsumer extends EventQueueConsumer {
  override subscribe(): Promise<void> {
    return Promise.resolve();
  }
}

export interface NotificationEngineOptions {
  pool: pg.Pool;
  secretKey: Buffer;
  deliver: DeliverNotification;
  /** Links start with this; else with the public.url property, else with fallbackUrl. */
  publicUrl?: string;
  fallbackUrl: string;
  flapWindowMs?: number;
  deliveryTimeoutMs?: number;
  /** Told of each send to a recipient once its history row is written (the plugin counts them for /metrics). */
  onDelivery?: (result: 'sent' | 'failed') => void;
}

/** What Send test did for one recipient: sent, failed with the provider's error, or skipped with why. */
export interface TestSend {
  recipient: string;
  status: 'sent' | 'failed' | 'skipped';
  detail: string | null;
}

interface NotificationRow {
  id: string;
  title: string | null;
  events: NotificationEvent[];
  filter: string | null;
  template: string | null;
  template_syntax: TemplateSyntax;
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown;
  playbook_id: string | null;
  properties: Record<string, unknown> | null;
}

interface LoadedResource {
  id: string | null;
  variables: Record<string, Record<string, unknown>>;
  path: string;
}

interface Rendered {
  title: string;
  body: string;
  url: string;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, ERROR_LIMIT);
}

function stringProperty(properties: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = properties[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidOrNull(value: string | null): string | null {
  return value !== null && UUID.test(value) ? value : null;
}

type RunTarget = { type: Exclude<EventFamily, 'playbook'>; id: string } | null;

/** The resource a playbook recipient runs on: the check, component or catalog item of the event; none for playbook events. */
function runTargetOf(event: QueuedEvent, resourceId: string | null): RunTarget {
  if (!isNotificationEvent(event.name)) return null;
  const family = familyOf(event.name);
  return family === 'playbook' || resourceId === null ? null : { type: family, id: resourceId };
}

const NOTIFICATIONS_OF_EVENT = `coalesce((
  select jsonb_agg(to_jsonb(n) order by n.created_at, n.id)
    from (select id, title, events, filter, template, template_syntax, person_id, team_id, custom_services, playbook_id, properties, created_at
            from notifications where $1 = any (events) and deleted_at is null) n), '[]'::jsonb)`;

/** The event's resource row (less its large or sensitive columns) and the notifications of the event, in one round trip. */
interface ResourceQuery {
  row: string;
  table: string;
  idKey: string;
  variable: string;
  path: (id: string) => string;
}

const RESOURCE_QUERIES: Readonly<Record<Exclude<EventFamily, 'playbook'>, ResourceQuery>> = {
  check: { row: `to_jsonb(c) - 'spec'`, table: 'checks', idKey: 'check_id', variable: 'check', path: (id) => notificationResourcePath('check.failed', id) },
  config: { row: `to_jsonb(c) - 'config'`, table: 'config_items', idKey: 'config_id', variable: 'config', path: (id) => notificationResourcePath('config.updated', id) },
  component: {
    row: `to_jsonb(c) - 'properties' - 'summary'`,
    table: 'components',
    idKey: 'component_id',
    variable: 'component',
    path: (id) => notificationResourcePath('component.healthy', id),
  },
};

async function loadRow(pool: pg.Pool, sql: string, id: string | null): Promise<Record<string, unknown> | null> {
  if (uuidOrNull(id) === null) return null;
  const result = await pool.query<{ row: Record<string, unknown> }>(sql, [id]);
  return result.rows[0]?.row ?? null;
}

async function loadPlaybookResource(pool: pg.Pool, event: QueuedEvent): Promise<LoadedResource> {
  const p = event.properties;
  const runId = stringProperty(p, 'run_id');
  const run = (await loadRow(pool, `select to_jsonb(r) - 'parameters' - 'spec' as row from playbook_runs r where r.id = $1`, runId)) ?? {};
  const playbookId = stringProperty(p, 'playbook_id', 'id') ?? (typeof run.playbook_id === 'string' ? run.playbook_id : null);
  const playbook =
    (await loadRow(
      pool,
      `select jsonb_build_object('id', p.id, 'name', p.name, 'namespace', p.namespace, 'title', p.title, 'description', p.description,
                                 'category', p.category, 'approval', p.spec -> 'approval') as row
         from playbooks p where p.id = $1`,
      playbookId,
    )) ?? p;
  return runId === null
    ? { id: uuidOrNull(playbookId), variables: { playbook, run }, path: notificationResourcePath('playbook.spec.approval.updated', playbookId ?? '') }
    : { id: uuidOrNull(runId), variables: { playbook, run }, path: notificationResourcePath('playbook.approval.inserted', runId) };
}

/**
 * The notifications of the event and, when there are any, its resource as filters and templates see it. Large or
 * sensitive columns (a check's spec, a config's document, a run's parameters) are left out; a resource already gone
 * is described by the event's own properties.
 */
async function loadEvent(
  pool: pg.Pool,
  family: EventFamily,
  event: QueuedEvent,
): Promise<{ notifications: NotificationRow[]; resource: LoadedResource }> {
  if (family === 'playbook') {
    const result = await pool.query<{ notifications: NotificationRow[] }>(`select ${NOTIFICATIONS_OF_EVENT} as notifications`, [event.name]);
    const notifications = result.rows[0]?.notifications ?? [];
    const resource = notifications.length === 0 ? { id: null, variables: {}, path: '' } : await loadPlaybookResource(pool, event);
    return { notifications, resource };
  }
  const query = RESOURCE_QUERIES[family];
  const id = stringProperty(event.properties, query.idKey, 'id');
  const result = await pool.query<{ row: Record<string, unknown> | null; notifications: NotificationRow[] }>(
    `select (select ${query.row} from ${query.table} c where c.id = $2::uuid) as row, ${NOTIFICATIONS_OF_EVENT} as notifications`,
    [event.name, uuidOrNull(id)],
  );
  const row = result.rows[0];
  return {
    notifications: row?.notifications ?? [],
    resource: { id: uuidOrNull(id), variables: { [query.variable]: row?.row ?? event.properties }, path: query.path(id ?? '') },
  };
}

/** properties.repeatInterval (Mission Control's spec.repeatInterval): a duration, 0 when not set. */
function repeatIntervalOf(properties: Record<string, unknown>): number {
  const raw = properties.repeatInterval;
  return typeof raw === 'string' || typeof raw === 'number' ? (parseDurationMs(raw) ?? 0) : 0;
}

function flapWindowOf(properties: Record<string, unknown>, fallback: number): number {
  const raw = properties.flapWindowSeconds;
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : fallback;
}

/**
 * The delivery consumer's handlers, one per notification event. For each event: the notifications subscribed to it
 * whose filter passes, rendered, sent to each recipient once. A recipient's send-history row is keyed by notification,
 * event and recipient, so a retried event re-sends only to those not yet sent or skipped; a failure is recorded and
 * then thrown, for the queue to retry with its backoff.
 */
export function notificationEngine(options: NotificationEngineOptions): {
  handlers: Record<NotificationEvent, EventHandler>;
  releaseWaiting: (limit?: number) => Promise<number>;
  sendTest: (notificationId: string) => Promise<TestSend[] | null>;
} {
  const { pool } = options;
  const flapWindowMs = options.flapWindowMs ?? DEFAULT_FLAP_WINDOW_MS;
  const timeoutMs = options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const publicUrl = cached(LOOKUP_CACHE_MS, async () => {
    if (options.publicUrl !== undefined) return options.publicUrl.replace(/\/+$/, '');
    const result = await pool.query<{ value: string }>('select value from properties where name = $1', [PUBLIC_URL_PROPERTY]);
    const configured = result.rows[0]?.value.trim();
    return (configured === undefined || configured === '' ? options.fallbackUrl : configured).replace(/\/+$/, '');
  });
  const connections = new Map<string, () => Promise<ResolvedConnection>>();
  function connection(reference: string): Promise<ResolvedConnection> {
    let lookup = connections.get(reference);
    if (lookup === undefined) {
      lookup = cached(LOOKUP_CACHE_MS, () => resolveConnection(pool, options.secretKey, reference));
      connections.set(reference, lookup);
    }
    return lookup();
  }

  /**
   * Writes the row of one notification, event and recipient, or finds the one an earlier attempt wrote. A new row
   * starts as `sending` (attempt 1), or `skipped` when a flap window of the notification, resource and recipient is
   * open; otherwise it opens one. One statement decides it; a retry of a known key touches no window.
   */
  async function record(entry: RecordEntry): Promise<{ id: string; status: string; created: boolean }> {
    const result = await pool.query<{ id: string; status: string; created: boolean }>(
      `with known as (
         select 1 from notification_send_history where idempotency_key = $6
       ), claimed as (
         insert into notification_flap_windows as w (notification_id, resource_id, recipient, source_event)
         select $1, $3::uuid, $7, $2 where $9::boolean and not exists (select 1 from known)
         on conflict (notification_id, resource_id, recipient) do update
           set source_event = excluded.source_event, opened_at = now()
           where w.opened_at <= now() - make_interval(secs => $10::double precision / 1000)
         returning 1
       ), held as (
         select $9::boolean and not exists (select 1 from claimed) as skipped
       ), prior as (
         select opened_at::text as opened_at, source_event from notification_flap_windows
          where notification_id = $1 and resource_id = $3::uuid and recipient = $7
       ), ins as (
         insert into notification_send_history
           (notification_id, status, source_event, resource_id, person_id, body, idempotency_key, recipient, reason, error, attempts, group_id)
         select $1, case when h.skipped then 'skipped' else $8 end, $2, $3::uuid, $4, $5, $6, $7,
                case when h.skipped
                     then 'Flapping: ' || coalesce(p.source_event || ' was sent at ' || p.opened_at, 'a message was sent')
                          || ', inside the flap window of ' || round($10::numeric / 1000) || ' s'
                     else $11::text end,
                case when h.skipped then null else $12::text end,
                case when not h.skipped and $8 = 'sending' then 1 else 0 end, $13::uuid
           from held h left join prior p on true
         on conflict (idempotency_key) do nothing
         returning id, status
       )
       select id, status, true as created from ins
       union all
       select id, status, false from notification_send_history where idempotency_key = $6 and not exists (select 1 from ins)`,
      [
        entry.notificationId,
        entry.event.name,
        entry.resourceId,
        entry.personId,
        entry.body,
        entry.idempotencyKey ?? `${entry.notificationId}:${entry.event.id}:${entry.recipientKey}`,
        entry.recipientKey,
        entry.status,
        entry.flap !== null && entry.resourceId !== null,
        entry.flap?.windowMs ?? 0,
        entry.reason ?? null,
        entry.error ?? null,
        entry.groupId ?? null,
      ],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error(`send history row of ${entry.recipientKey} could not be written`);
    return row;
  }

  async function finish(id: string, status: 'sent' | 'failed', fields: { error?: string; durationMs: number; connectionId: string | null }) {
    await pool.query(
      `update notification_send_history set status = $2, error = $3, duration_millis = $4, connection_id = coalesce($5, connection_id) where id = $1`,
      [id, status, fields.error ?? null, fields.durationMs, fields.connectionId],
    );
  }

  async function emailConnection(reference: string | null): Promise<string> {
    if (reference !== null) return reference;
    const result = await pool.query<{ id: string }>(
      `select id from connections where type in ('email', 'smtp') and deleted_at is null order by (namespace = 'default') desc, created_at limit 1`,
    );
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error('No email connection to send with: create one, or name it in the notification properties as connection');
    return id;
  }

  /** Sends one history row's message; returns the error, or null when sent. */
  async function send(historyId: string, recipient: Exclude<Recipient, { kind: 'unreachable' | 'playbook' }>, message: Omit<NotificationMessage, 'to' | 'options'>): Promise<string | null> {
    const started = Date.now();
    let connectionId: string | null = null;
    try {
      const resolved = await connection(recipient.kind === 'email' ? await emailConnection(recipient.connection) : recipient.service.connection);
      connectionId = resolved.id;
      await options.deliver(
        resolved,
        { ...message, to: recipient.kind === 'email' ? [recipient.email] : addressesOf(recipient.service.options), options: recipient.kind === 'service' ? recipient.service.options : {} },
        { signal: AbortSignal.timeout(timeoutMs) },
      );
      await finish(historyId, 'sent', { durationMs: Date.now() - started, connectionId });
      options.onDelivery?.('sent');
      return null;
    } catch (error) {
      const text = messageOf(error);
      await finish(historyId, 'failed', { error: text, durationMs: Date.now() - started, connectionId });
      options.onDelivery?.('failed');
      return text;
    }
  }

  /**
   * Mission Control's playbook recipient: a run of the playbook on the event's resource, requested as any run is (the
   * target matched against its selectors, parameters filled with their defaults, held for approval when it asks for
   * one), by no person. The run and the history row saying sent are one transaction, so a retried event never
   * requests a second run; a refusal (the playbook gone, the resource not one it is offered for, a parameter without
   * a value) is the send's error, as a provider's would be. Returns the error, or null when requested.
   */
  async function runPlaybook(historyId: string, playbookId: string, event: QueuedEvent, target: RunTarget): Promise<string | null> {
    const started = Date.now();
    try {
      await inTransaction(pool, async (client) => {
        const { runId } = await requestPlaybookRun(client, { playbookId, target, params: {}, createdBy: null, secretKey: options.secretKey });
        await client.query(`update notification_send_history set status = 'sent', error = null, duration_millis = $2, playbook_run_id = $3 where id = $1`, [
          historyId,
          Date.now() - started,
          runId,
        ]);
      });
      options.onDelivery?.('sent');
      return null;
    } catch (error) {
      const text = `The playbook run of ${event.name} was not requested: ${messageOf(error)}`.slice(0, ERROR_LIMIT);
      await finish(historyId, 'failed', { error: text, durationMs: Date.now() - started, connectionId: null });
      options.onDelivery?.('failed');
      return text;
    }
  }

  /** An email service's own addresses (its `to` option, comma-separated): Mission Control's `to.email`. */
  function addressesOf(options: Readonly<Record<string, string>>): string[] {
    return (options.to ?? '').split(',').map((address) => address.trim()).filter((address) => address !== '');
  }

  async function render(notification: NotificationRow, family: EventFamily, scope: Record<string, unknown>): Promise<Rendered> {
    const defaults = DEFAULT_TEMPLATES[family];
    const hasTemplate = notification.template !== null && notification.template.trim() !== '';
    const hasTitle = notification.title !== null && notification.title.trim() !== '';
    // The defaults are Liquid whatever the notification's own texts are written in.
    const syntax = notification.template_syntax;
    return {
      title: (hasTitle ? await renderTemplate(notification.title ?? '', scope, syntax) : await renderTemplate(defaults.title, scope)).trim(),
      body: (hasTemplate ? await renderTemplate(notification.template ?? '', scope, syntax) : await renderTemplate(defaults.body, scope)).trim(),
      url: String(scope.url),
    };
  }

  /**
   * Sends one event of one notification to its recipients; returns the errors of the sends that failed. A health event
   * of a notification with waitFor is held instead (notification-wait.ts), and `released` is how its release says so,
   * with the group (groupBy) the resource joined when the event was held.
   */
  async function notify(
    notification: NotificationRow,
    event: QueuedEvent & { name: NotificationEvent },
    resource: LoadedResource,
    eventVariable: Record<string, unknown>,
    scope: Record<string, unknown>,
    released: { reason: string; groupId: string | null } | null = null,
  ): Promise<string[]> {
    const family = familyOf(event.name);
    const properties = notification.properties ?? {};
    const untagged = { notificationId: notification.id, event, resourceId: resource.id, personId: null, body: '', flap: null };
    const filter = evaluateFilter(notification.filter, notification.events, { ...resource.variables, event: eventVariable });
    if ('error' in filter) {
      await record({ ...untagged, recipientKey: 'filter', status: 'skipped', reason: `The filter could not be evaluated: ${filter.error}` });
      return [];
    }
    if (!filter.pass) return [];
    // The resource joins its group when the event happens, so messages released later list it.
    const groupId = released === null ? await groupOf(notification.id, family, resource, properties) : released.groupId;
    const base = { ...untagged, groupId };
    const waitMs = waitMsOf(properties, event.name);
    if (released === null && waitMs > 0 && resource.id !== null) {
      await holdEvent(pool, { notificationId: notification.id, event, resourceId: resource.id, family, waitMs, label: waitLabel(properties, event.name), groupId });
      return [];
    }
    const grouped =
      groupId === null || resource.id === null
        ? []
        : await groupedResources(pool, groupId, resource.id, notification.events.filter((name) => isStateEvent(name)).map((name) => healthOfEvent(name)));
    let rendered: Rendered;
    try {
      rendered = await render(notification, family, { ...scope, groupedResources: grouped });
    } catch (error) {
      // A template that cannot render will not render on a retry either: recorded, not retried.
      await record({ ...base, recipientKey: 'template', status: 'failed', error: `The template could not be rendered: ${messageOf(error)}` });
      return [];
    }
    const repeatMs = repeatIntervalOf(properties);
    if (repeatMs > 0 && resource.id !== null) {
      // As Mission Control's repeatInterval: this event of this resource, or of its group, went out from this
      // notification lately.
      const sent = await pool.query<{ at: string; same: boolean }>(
        `select created_at::text as at, resource_id = $2::uuid as same from notification_send_history
          where notification_id = $1 and (resource_id = $2::uuid or group_id = $5::uuid) and source_event = $3 and status = 'sent'
            and created_at > now() - make_interval(secs => $4::double precision / 1000)
          order by created_at desc limit 1`,
        [notification.id, resource.id, event.name, repeatMs, groupId],
      );
      const last = sent.rows[0];
      if (last !== undefined) {
        const whose = last.same ? '' : ' for another resource of its group (groupBy)';
        await record({ ...base, recipientKey: 'repeat', status: 'skipped', reason: `Repeat interval: ${event.name} was sent${whose} at ${last.at}, inside the repeat interval of ${String(properties.repeatInterval)}` });
        return [];
      }
    }
    if (repeatMs > 0 && resource.id !== null && family === 'config' && properties.inhibitions !== undefined) {
      const inhibitor = await inhibitorOf(notification.id, resource, properties, repeatMs);
      if (inhibitor !== null) {
        await record({ ...base, recipientKey: 'inhibition', status: 'skipped', reason: inhibitor });
        return [];
      }
    }
    const windowMs = flapWindowOf(properties, flapWindowMs);
    const flap = isStateEvent(event.name) && windowMs > 0 ? { windowMs } : null;
    const recipients = await resolveRecipients(pool, { ...notification, properties });
    const failures = await sendToEach(recipients, { ...base, flap, ...(released === null ? {} : { reason: released.reason }) }, rendered, (key) => key);
    const fallback = fallbackOf(properties);
    if (failures.length > 0 && fallback !== null) {
      await holdFallback(pool, {
        notificationId: notification.id,
        event,
        resourceId: resource.id,
        delayMs: fallback.delayMs,
        failed: failures.map((failure) => failure.key),
        reason: `Fallback: the delivery to ${failures.map((failure) => failure.key).join(', ')} failed; sent to the fallback recipient${fallback.delay === null ? '' : ` after ${fallback.delay}`} unless a retry delivers it first`,
      });
    }
    return failures.map((failure) => failure.error);
  }

  /** The group (groupBy) the resource joins for this notification; null when the notification does not group it. */
  async function groupOf(notificationId: string, family: EventFamily, resource: LoadedResource, properties: Record<string, unknown>): Promise<string | null> {
    const grouping = groupingOf(properties);
    if (grouping === null || family === 'playbook' || resource.id === null) return null;
    const row = resource.variables[family];
    const hash = row === undefined ? null : groupHash(grouping.keys, family, row);
    if (hash === null) return null;
    return joinGroup(pool, { notificationId, hash, intervalMs: grouping.intervalMs, resourceId: resource.id, family });
  }

  /** Why the notification holds this catalog item's event back (its inhibitions), or null to send it. */
  async function inhibitorOf(notificationId: string, resource: LoadedResource, properties: Record<string, unknown>, windowMs: number): Promise<string | null> {
    const inhibitions = parseInhibitions(properties.inhibitions);
    const type = resource.variables.config?.type;
    if ('problem' in inhibitions || resource.id === null || typeof type !== 'string') return null;
    const inhibitor = await findInhibitor(pool, { notificationId, resourceId: resource.id, type, inhibitions, windowMs });
    if (inhibitor === null) return null;
    return `Inhibited: ${inhibitor.event} of the related ${inhibitor.type} ${inhibitor.name} was sent at ${inhibitor.at}, inside the repeat interval of ${String(properties.repeatInterval)}`;
  }

  /**
   * Sends the rendered message to each recipient, each with its own history row keyed by `keyOf(recipient key)` under
   * the notification and event; returns the recipients whose sends failed. Recipients are independent: their sends
   * overlap.
   */
  async function sendToEach(
    recipients: readonly Recipient[],
    base: Omit<RecordEntry, 'recipientKey' | 'personId' | 'body' | 'status'>,
    rendered: Rendered,
    keyOf: (recipientKey: string) => string,
  ): Promise<Array<{ key: string; error: string }>> {
    const target = runTargetOf(base.event, base.resourceId);
    const outcomes = await Promise.all(
      recipients.map(async (recipient): Promise<{ key: string; error: string } | null> => {
        const personId = recipient.kind === 'email' || recipient.kind === 'unreachable' ? recipient.personId : null;
        const idempotencyKey = `${base.notificationId}:${base.event.id}:${keyOf(recipient.key)}`;
        const entry = { ...base, recipientKey: recipient.key, personId, body: rendered.body, idempotencyKey };
        if (recipient.kind === 'unreachable') {
          await record({ ...entry, status: 'skipped', reason: recipient.reason, flap: null });
          return null;
        }
        const row = await record({ ...entry, status: 'sending' });
        if (row.status === 'sent' || row.status === 'skipped') return null;
        if (!row.created) await pool.query(`update notification_send_history set status = 'sending', attempts = attempts + 1 where id = $1`, [row.id]);
        const error = recipient.kind === 'playbook' ? await runPlaybook(row.id, recipient.playbookId, base.event, target) : await send(row.id, recipient, { idempotencyKey, ...rendered });
        return error === null ? null : { key: keyOf(recipient.key), error };
      }),
    );
    return outcomes.filter((outcome): outcome is { key: string; error: string } => outcome !== null);
  }

  async function scopeOf(event: QueuedEvent, resource: LoadedResource): Promise<{ eventVariable: Record<string, unknown>; scope: Record<string, unknown> }> {
    const eventVariable: Record<string, unknown> = { id: event.id, name: event.name, created_at: event.created_at, properties: event.properties };
    return { eventVariable, scope: { ...resource.variables, event: eventVariable, url: `${await publicUrl()}${resource.path}` } };
  }

  async function handle(event: QueuedEvent): Promise<void> {
    if (!isNotificationEvent(event.name)) return;
    const typed = event as QueuedEvent & { name: NotificationEvent };
    const family = familyOf(typed.name);
    const { notifications, resource } = await loadEvent(pool, family, event);
    if (notifications.length === 0) return;
    const { eventVariable, scope } = await scopeOf(event, resource);
    const failures = (await Promise.all(notifications.map((notification) => notify(notification, typed, resource, eventVariable, scope)))).flat();
    if (failures.length > 0) throw new Error(`${failures.length} notification deliveries failed: ${failures[0] ?? ''}`.slice(0, ERROR_LIMIT));
  }

  /** One held event whose wait is over: sent if its notification still wants it and the health held, else skipped. */
  async function release(wait: DueWait): Promise<void> {
    if (wait.recipient === FALLBACK_RECIPIENT) {
      await releaseFallback(wait);
      return;
    }
    const family = familyOf(wait.event.name);
    const { notifications, resource } = await loadEvent(pool, family, wait.event);
    const notification = notifications.find((candidate) => candidate.id === wait.notificationId);
    const label = waitLabel(notification?.properties ?? {}, wait.event.name);
    if (notification === undefined) {
      await settleWait(pool, wait.id, 'skipped', `The notification no longer sends ${wait.event.name}: not sent`);
      return;
    }
    const expected = healthOfEvent(wait.event.name);
    const now = resource.id === null ? null : await currentHealth(pool, family, resource.id);
    if (now === null) {
      await settleWait(pool, wait.id, 'skipped', `Waited ${label} (waitFor): the ${family} no longer exists, so ${wait.event.name} was not sent`);
      return;
    }
    if (now.health !== expected) {
      await settleWait(pool, wait.id, 'skipped', `Waited ${label} (waitFor): the ${family} is ${now.health ?? 'unknown'} now, so ${wait.event.name} was not sent`);
      return;
    }
    const { eventVariable, scope } = await scopeOf(wait.event, resource);
    const failures = await notify(notification, wait.event, resource, eventVariable, scope, {
      reason: `Sent after waiting ${label} (waitFor): the ${family} was still ${expected}`,
      groupId: wait.groupId,
    });
    if (failures.length === 0) await dropWait(pool, wait.id);
    else await retryWait(pool, wait, `${failures.length} deliveries failed: ${failures[0] ?? ''}`.slice(0, ERROR_LIMIT));
  }

  /**
   * A held fallback whose delay is over: sent to the fallback recipient the notification names now, unless the primary
   * was delivered meanwhile. No repeat interval, flap window or inhibition holds it: those let the primary through.
   */
  async function releaseFallback(wait: DueWait): Promise<void> {
    const family = familyOf(wait.event.name);
    const { notifications, resource } = await loadEvent(pool, family, wait.event);
    const notification = notifications.find((candidate) => candidate.id === wait.notificationId);
    const fallback = fallbackOf(notification?.properties ?? {});
    if (notification === undefined || fallback === null) {
      await settleWait(pool, wait.id, 'skipped', `The notification no longer sends ${wait.event.name} to a fallback: not sent`);
      return;
    }
    const failed = failedRecipientsOf(wait.payload);
    if (!(await primaryStillFailed(pool, notification.id, wait.event.id, failed))) {
      await settleWait(pool, wait.id, 'skipped', `Not sent to the fallback: a retry delivered ${wait.event.name} to ${failed.join(', ')}`);
      return;
    }
    const { scope } = await scopeOf(wait.event, resource);
    let rendered: Rendered;
    try {
      rendered = await render(notification, family, scope);
    } catch (error) {
      await settleWait(pool, wait.id, 'failed', `The template could not be rendered: ${messageOf(error)}`);
      return;
    }
    const recipients = await resolveRecipients(pool, { ...fallback.target, properties: notification.properties ?? {} });
    const base = { notificationId: notification.id, event: wait.event, resourceId: resource.id, flap: null, reason: `Fallback: the delivery to ${failed.join(', ')} failed` };
    const failures = await sendToEach(recipients, base, rendered, (key) => `${FALLBACK_RECIPIENT}:${key}`);
    if (failures.length === 0) await dropWait(pool, wait.id);
    else await retryWait(pool, wait, `${failures.length} fallback deliveries failed: ${failures[0]?.error ?? ''}`.slice(0, ERROR_LIMIT));
  }

  /**
   * Send test (#34 item 18): one plainly worded message to each recipient of the notification, through the same
   * connections and providers as a real one, so its author sees at once whether the messages arrive. Nothing is
   * recorded in the send history (its counts stay those of real events), and nothing is sent anywhere the
   * notification does not already send to.
   */
  async function sendTest(notificationId: string): Promise<TestSend[] | null> {
    const found = await pool.query<NotificationRow & { name: string | null }>(
      `select id, name, title, events, filter, template, template_syntax, person_id, team_id, custom_services, playbook_id, properties
         from notifications where id = $1 and deleted_at is null`,
      [notificationId],
    );
    const notification = found.rows[0];
    if (notification === undefined) return null;
    const label = notification.name ?? (notification.title !== null && !/\{\{|\{%/.test(notification.title) ? notification.title : notification.events.join(', '));
    const message = {
      title: `Test of the notification ${label}`,
      body: [
        `This is a test message of the Opsdeck notification "${label}", sent from its editor.`,
        `It is sent for: ${notification.events.join(', ')}. Health events go out when a check, component or catalog item changes health, not again while it stays the same.`,
      ].join('\n\n'),
      url: `${await publicUrl()}/settings/notifications`,
    };
    const recipients = await resolveRecipients(pool, { ...notification, properties: notification.properties ?? {} });
    return Promise.all(
      recipients.map(async (recipient): Promise<TestSend> => {
        if (recipient.kind === 'unreachable') return { recipient: recipient.key, status: 'skipped', detail: recipient.reason };
        if (recipient.kind === 'playbook') {
          return { recipient: recipient.key, status: 'skipped', detail: 'A test runs no playbook: the playbook runs on the resource of a real event' };
        }
        try {
          const resolved = await connection(recipient.kind === 'email' ? await emailConnection(recipient.connection) : recipient.service.connection);
          await options.deliver(
            resolved,
            {
              ...message,
              idempotencyKey: `${notification.id}:test:${Date.now()}:${recipient.key}`,
              to: recipient.kind === 'email' ? [recipient.email] : addressesOf(recipient.service.options),
              options: recipient.kind === 'service' ? recipient.service.options : {},
            },
            { signal: AbortSignal.timeout(timeoutMs) },
          );
          return { recipient: recipient.key, status: 'sent', detail: null };
        } catch (error) {
          return { recipient: recipient.key, status: 'failed', detail: messageOf(error) };
        }
      }),
    );
  }

  /** Releases up to `limit` held events whose wait is over; returns how many it took. */
  async function releaseWaiting(limit = 20): Promise<number> {
    const due = await claimDueWaits(pool, limit);
    for (const wait of due) await release(wait);
    return due.length;
  }

  return { handlers: Object.fromEntries(NOTIFICATION_EVENTS.map((name) => [name, handle])) as Record<NotificationEvent, EventHandler>, releaseWaiting, sendTest };
}

/** The delivery consumer's handlers alone (the engine without its release of held events). */
export function notificationHandlers(options: NotificationEngineOptions): Record<NotificationEvent, EventHandler> {
  return notificationEngine(options).handlers;
}
