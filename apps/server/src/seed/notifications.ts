import type pg from 'pg';
import { DEMO_INBOX_HOOKS_PATH, DEMO_INBOX_SOURCE } from '../modules/demo-inbox';
import { seededFailure } from './seeded-failure';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The demo's connections deliver to the demo inbox (ADR 0085), so a new install shows notifications arriving; the
 * inbox keeps them pointed at itself when the server's port or its mail port changes.
 */
export const DEMO_WEBHOOK_CONNECTION = 'demo-webhook';
export const DEMO_EMAIL_CONNECTION = 'demo-smtp';

const REFUSED = seededFailure('connect ECONNREFUSED 192.0.2.25:25');

export interface NotificationsDemoOptions {
  adminId: string;
  /** The team whose members get the failing-check emails. */
  teamId: string;
  /** Where this server answers; the inbox's webhook lives under it. */
  serverUrl: string;
}

type HistoryStatus = 'pending' | 'sent' | 'failed' | 'skipped';

interface DemoDelivery {
  status: HistoryStatus;
  event: string;
  minutesAgo: number;
  attempts: number;
  error?: string;
  reason?: string;
  durationMillis?: number;
}

/** Failing-check emails to the team: sent, one refused by the mail server, flapping flips skipped, one on its way. */
const CHECK_DELIVERIES: readonly DemoDelivery[] = [
  { status: 'sent', event: 'check.failed', minutesAgo: 300, attempts: 1, durationMillis: 412 },
  { status: 'sent', event: 'check.passed', minutesAgo: 240, attempts: 1, durationMillis: 388 },
  { status: 'skipped', event: 'check.failed', minutesAgo: 238, attempts: 0, reason: 'Flapping: check.passed was sent inside the flap window of 300 s' },
  { status: 'skipped', event: 'check.passed', minutesAgo: 237, attempts: 0, reason: 'Flapping: check.passed was sent inside the flap window of 300 s' },
  { status: 'failed', event: 'check.failed', minutesAgo: 90, attempts: 5, error: REFUSED, durationMillis: 10_000 },
  { status: 'pending', event: 'check.failed', minutesAgo: 1, attempts: 0 },
];

/** Config changes to the webhook: a few sent, one refused, one pending. */
const CONFIG_DELIVERIES: readonly DemoDelivery[] = [
  { status: 'sent', event: 'config.updated', minutesAgo: 180, attempts: 1, durationMillis: 95 },
  { status: 'sent', event: 'config.deleted', minutesAgo: 150, attempts: 2, durationMillis: 120 },
  { status: 'failed', event: 'config.deleted', minutesAgo: 20, attempts: 3, error: seededFailure('POST https://hooks.example.com/opsdeck: 503 Service Unavailable'), durationMillis: 41 },
  { status: 'pending', event: 'config.updated', minutesAgo: 2, attempts: 1 },
];

async function insertNotification(client: Queryable, fields: Record<string, unknown>, adminId: string): Promise<string> {
  const result = await client.query<{ id: string }>(
    `insert into notifications (name, title, events, filter, team_id, custom_services, template, properties, source, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'UI', $9) returning id`,
    [
      fields.name,
      fields.title ?? null,
      fields.events,
      fields.filter ?? null,
      fields.teamId ?? null,
      fields.customServices === undefined ? null : JSON.stringify(fields.customServices),
      fields.template ?? null,
      JSON.stringify(fields.properties ?? {}),
      adminId,
    ],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('notification insert returned no id');
  return id;
}

async function insertHistory(
  client: Queryable,
  notificationId: string,
  deliveries: readonly DemoDelivery[],
  recipient: { key: string; personId: string | null },
  resourceId: string | null,
  body: string,
): Promise<void> {
  for (const [index, delivery] of deliveries.entries()) {
    await client.query(
      `insert into notification_send_history
         (notification_id, status, source_event, resource_id, person_id, body, error, reason, duration_millis, attempts,
          idempotency_key, recipient, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now() - make_interval(mins => $13), now() - make_interval(mins => $13))`,
      [
        notificationId,
        delivery.status,
        delivery.event,
        resourceId,
        recipient.personId,
        body,
        delivery.error ?? null,
        delivery.reason ?? null,
        delivery.durationMillis ?? null,
        delivery.attempts,
        `demo:${notificationId}:${index}:${recipient.key}`,
        recipient.key,
        delivery.minutesAgo,
      ],
    );
  }
}

/**
 * Two notifications with a history in every status (pending, sent, failed with errors, skipped): failing checks to a
 * team by email, and config changes to a generic webhook. Returns how many history rows were written.
 */
export async function seedNotificationsDemo(client: Queryable, options: NotificationsDemoOptions): Promise<number> {
  await client.query(
    `insert into connections (name, namespace, type, url, properties, source, created_by) values
       ($1, 'default', 'generic_webhook', $4, '{}', $5, $3),
       ($2, 'default', 'email', '127.0.0.1:25', '{"from": "opsdeck@opsdeck.local"}', $5, $3)
     on conflict (namespace, name) where deleted_at is null do nothing`,
    [DEMO_WEBHOOK_CONNECTION, DEMO_EMAIL_CONNECTION, options.adminId, `${options.serverUrl}${DEMO_INBOX_HOOKS_PATH}/opsdeck`, DEMO_INBOX_SOURCE],
  );
  const check = await client.query<{ id: string; name: string }>('select id, name from checks where deleted_at is null order by name limit 1');
  const config = await client.query<{ id: string; name: string }>('select id, name from config_items where deleted_at is null order by name limit 1');
  const member = await client.query<{ id: string; email: string }>(
    `select p.id, p.email from team_members m join people p on p.id = m.person_id where m.team_id = $1 and p.email is not null order by p.email limit 1`,
    [options.teamId],
  );

  const checks = await insertNotification(
    client,
    {
      name: 'Failing checks',
      events: ['check.failed', 'check.passed'],
      teamId: options.teamId,
      properties: { connection: `connection://default/${DEMO_EMAIL_CONNECTION}`, flapWindowSeconds: 300 },
    },
    options.adminId,
  );
  const configs = await insertNotification(
    client,
    {
      name: 'Config changes',
      title: '{{ config.type }} {{ config.name }} changed',
      // Not config.created: a notification on it makes every catalog insert queue an event (ADR 0055), too dear for a demo.
      events: ['config.updated', 'config.deleted'],
      filter: "config.type.startsWith('Kubernetes::')",
      customServices: [{ connection: `connection://default/${DEMO_WEBHOOK_CONNECTION}`, name: 'webhook' }],
    },
    options.adminId,
  );

  const checkRow = check.rows[0];
  const configRow = config.rows[0];
  const memberRow = member.rows[0];
  await insertHistory(
    client,
    checks,
    CHECK_DELIVERIES,
    { key: `email:${memberRow?.email ?? 'platform@opsdeck.local'}`, personId: memberRow?.id ?? null },
    checkRow?.id ?? null,
    `**${checkRow?.name ?? 'A check'}** is failing.`,
  );
  await insertHistory(
    client,
    configs,
    CONFIG_DELIVERIES,
    { key: `service:connection://default/${DEMO_WEBHOOK_CONNECTION}#webhook`, personId: null },
    configRow?.id ?? null,
    `**${configRow?.name ?? 'A config'}** was updated.`,
  );
  return CHECK_DELIVERIES.length + CONFIG_DELIVERIES.length;
}
